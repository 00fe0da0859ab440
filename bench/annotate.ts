// Annotator throughput: generates a multi-block lab CSV (a key/value metadata block, a blank
// line, then a table of 20 numeric columns with a name row and a unit row) in a temp dir,
// then measures, in this run and on the same file:
//   floor    — read the file as a stream, decode UTF-8 and split it into lines (our physical floor)
//   annotate — lib/annotator's annotate() on the same stream
// each pass in its own process (best of two reads), the two kinds interleaved --runs times (so that load from
// other processes hits both alike), and prints the best MB/s of each, annotate's peak RSS and
// the annotate/floor ratio (best against best, and the median of the interleaved pairs). Usage:
//   node bench/annotate.ts [--mb 100] [--runs 5] [--keep]
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { annotate } from '../lib/annotator/index.ts';
import { readFloor } from './floor.ts';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '100' },
    runs: { type: 'string', default: '5' },
    keep: { type: 'boolean' },
    measure: { type: 'string' },
    file: { type: 'string' },
  },
});
const targetBytes = Number(values.mb) * 1024 * 1024;
const runs = Number(values.runs);

const COLUMNS = 20;
const META = [
  ['Datum', '20.02.2008'],
  ['Prüfnorm', 'DIN EN ISO 527-3'],
  ['Prüfer', 'Bob'],
  ['Probenbreite b0', '11.4', 'mm'],
  ['Probendicke a0', '0.2', 'mm'],
  ['Prüfgeschwindigkeit', '150', 'mm/min'],
  ['Vorkraft', '0.2', 'N'],
  ['Temperatur', '23', '°C'],
];
const UNITS = ['s', 'mm', 'kN', 'MPa', '%', '°C', 'N', 'mm/min', 'V', 'Hz'];

async function generate(path: string): Promise<number> {
  const out = createWriteStream(path);
  const write = (text: string): Promise<void> | void => {
    if (!out.write(text)) return new Promise((resolve) => out.once('drain', resolve));
  };
  for (const row of META) await write(`${row.join(';')}\n`);
  await write('\n');
  await write(`${Array.from({ length: COLUMNS }, (_, i) => `Kanal ${i + 1}`).join(';')}\n`);
  await write(`${Array.from({ length: COLUMNS }, (_, i) => UNITS[i % UNITS.length]).join(';')}\n`);
  let written = 0;
  let row = 0;
  let seed = 12345;
  const random = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  while (written < targetBytes) {
    let chunk = '';
    for (let k = 0; k < 1000; k++, row++) {
      const cells = [String(row)];
      for (let c = 1; c < COLUMNS; c++)
        cells.push((random() * 1000 - 200).toFixed(c % 4 === 0 ? 2 : 5).replace('.', ','));
      chunk += `${cells.join(';')}\n`;
    }
    written += Buffer.byteLength(chunk);
    await write(chunk);
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return statSync(path).size;
}

// Each pass runs in a fresh process (this script with --measure), so that its peak RSS is its
// own and not the generator's or the other pass's garbage; it reads the file twice and keeps
// the faster read (the first warms the JIT and the page cache).
async function measure(kind: string, path: string, count: number): Promise<void> {
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  // Warm-up: the unit vocabulary is indexed once per process.
  if (kind !== 'floor')
    await annotate({
      open: () => [Buffer.from('Time [s];Force [kN]\n0,5;1,5\n')],
      csvUrl: 'https://example.org/w.csv',
    });
  let best = Infinity;
  let bestCpu = Infinity;
  let tables = 0;
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    if (kind === 'floor') await readFloor(path);
    else {
      const result = await annotate({
        open: () => createReadStream(path),
        csvUrl: 'https://example.org/lab.csv',
      });
      tables = result.descriptor.tables.length;
    }
    best = Math.min(best, (performance.now() - start) / 1000);
    const used = process.cpuUsage(cpu);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1e6);
  }
  clearInterval(sampler);
  console.log(JSON.stringify({ seconds: best, cpuSeconds: bestCpu, peakRss: peak, tables }));
}

interface Pass {
  seconds: number;
  /** CPU time (user + system) of the pass: less disturbed than wall time by other processes. */
  cpuSeconds: number;
  peakRss: number;
  tables: number;
}

function pass(kind: string, path: string): Pass {
  const out = execFileSync(process.execPath, [
    fileURLToPath(import.meta.url),
    '--measure',
    kind,
    '--file',
    path,
    '--runs',
    '2',
  ]);
  return JSON.parse(out.toString('utf8').trim().split('\n').pop() as string) as Pass;
}

if (values.measure) {
  await measure(values.measure, values.file as string, runs);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'labld-bench-annotate-'));
  const file = join(dir, 'lab-export.csv');
  try {
    const size = await generate(file);
    const mb = size / 1024 / 1024;
    console.log(`file: ${mb.toFixed(1)} MB, metadata block + ${COLUMNS} numeric columns (${file})`);
    const floors: Pass[] = [];
    const annotates: Pass[] = [];
    for (let i = 0; i < runs; i++) {
      floors.push(pass('floor', file));
      annotates.push(pass('annotate', file));
    }
    const best = (list: Pass[]) => list.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const floorPass = best(floors);
    const annotatePass = best(annotates);
    const peakRss = Math.max(...annotates.map((a) => a.peakRss));
    const ratios = annotates.map((a, i) => a.seconds / (floors[i] as Pass).seconds);
    const median = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)] as number;
    const rss = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    console.log(
      `floor (read + decode + split lines): ${(mb / floorPass.seconds).toFixed(0)} MB/s (${floorPass.seconds.toFixed(2)} s), peak RSS ${rss(floorPass.peakRss)}`,
    );
    console.log(
      `annotate: ${(mb / annotatePass.seconds).toFixed(0)} MB/s (${annotatePass.seconds.toFixed(2)} s), peak RSS ${rss(peakRss)}, ${annotatePass.tables} table(s)`,
    );
    console.log(
      `ratio annotate/floor: ${(annotatePass.seconds / floorPass.seconds).toFixed(2)}x best vs best, ${median.toFixed(2)}x median of ${runs} interleaved pairs (goal ≥ 70 MB/s and ≤ 2x)`,
    );
    const cpu = (list: Pass[]) => Math.min(...list.map((p) => p.cpuSeconds));
    console.log(
      `ratio by CPU time (user + system): ${(cpu(annotates) / cpu(floors)).toFixed(2)}x (floor ${cpu(floors).toFixed(2)} s, annotate ${cpu(annotates).toFixed(2)} s)`,
    );
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}
