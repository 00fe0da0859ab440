// The physical floor of reading a CSV, shared by the benches that compare against it: read the
// file as a stream, decode UTF-8 and split it into lines. Returns the number of lines.
import { createReadStream, createWriteStream } from 'node:fs';

export async function readFloor(path: string): Promise<number> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let carry = '';
  let lines = 0;
  for await (const chunk of createReadStream(path)) {
    const text = carry + decoder.decode(chunk as Buffer, { stream: true });
    const parts = text.split('\n');
    carry = parts.pop() ?? '';
    lines += parts.length;
  }
  return lines + (carry ? 1 : 0);
}

/**
 * The floor of describing a CSV: read it as `readFloor` does and, for each data row, write
 * `linesPerRow` lines of `lineBytes` bytes each (N-Triples-shaped, the row's first cell in
 * them) to `outPath` with backpressure — the output of csv2rdf in volume, with no RDF logic.
 * The CSV is decoded as `encoding` (the seed-like CSV is latin-1). Returns the lines written.
 */
export async function writeFloor(
  path: string,
  outPath: string,
  linesPerRow: number,
  lineBytes: number,
  encoding = 'utf-8',
): Promise<number> {
  const out = createWriteStream(outPath);
  const decoder = new TextDecoder(encoding, { fatal: true });
  let carry = '';
  let written = 0;
  let header = true;
  const emit = async (line: string): Promise<void> => {
    if (header) {
      header = false;
      return;
    }
    const cell = line.slice(0, line.indexOf(',') >>> 0);
    let block = '';
    for (let k = 0; k < linesPerRow; k += 1) {
      const start = `<urn:r${written}> <urn:p${k}> "${cell}"`;
      block += `${start.padEnd(Math.max(lineBytes - 3, start.length), ' ')} .\n`;
      written += 1;
    }
    if (!out.write(block)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  for await (const chunk of createReadStream(path)) {
    const text = carry + decoder.decode(chunk as Buffer, { stream: true });
    const parts = text.split('\n');
    carry = parts.pop() ?? '';
    for (const line of parts) if (line !== '') await emit(line);
  }
  if (carry !== '') await emit(carry);
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return written;
}
