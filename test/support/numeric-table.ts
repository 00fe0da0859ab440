// A lab table of numbers as the finding had it (20 columns, short decimals, a unit in
// every measured column's title), written to disk, and its descriptor made by the annotator
// itself, as a client would get it from /api/annotate. For csv2rdf tests and bench/csv2rdf.
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { annotate, renderDescriptor } from '../../lib/annotator/index.ts';

export const COLUMNS = 20;
const UNITS = ['s', 'mm', 'kN', 'MPa', '%', '°C', 'N', 'mm/min', 'V', 'Hz'];

/** Writes `rows` rows below a title row: an index, then 19 measured columns; returns the size. */
export async function writeNumericCsv(path: string, rows: number): Promise<number> {
  const out = createWriteStream(path);
  const write = (text: string): Promise<void> | void => {
    if (!out.write(text)) return new Promise((resolve) => out.once('drain', resolve));
  };
  const titles = ['Index'];
  for (let c = 1; c < COLUMNS; c++) titles.push(`Kanal ${c} [${UNITS[c % UNITS.length]}]`);
  await write(`${titles.join(',')}\n`);
  let seed = 12345;
  const random = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let start = 0; start < rows; start += 1000) {
    let chunk = '';
    for (let r = start; r < Math.min(rows, start + 1000); r++) {
      chunk += String(r);
      for (let c = 1; c < COLUMNS; c++) chunk += `,${(random() * 100).toFixed(1)}`;
      chunk += '\n';
    }
    await write(chunk);
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return statSync(path).size;
}

/** The annotator's JSON-LD descriptor of the CSV at `path`, naming it `csvUrl`. */
export async function annotatorDescriptor(path: string, csvUrl: string): Promise<string> {
  const { descriptor, metadataFileName } = await annotate({ open: () => createReadStream(path), csvUrl });
  const rendered = await renderDescriptor(descriptor, 'json-ld', { metadataFileName });
  return rendered.body;
}
