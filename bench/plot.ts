// Plot benchmark: a measured curve of 1M rows (default) in the embedded datastore, reduced to
// the 2000 points a plot draws (Datastore.buckets, then envelope: what labld_datastore_plot
// does), p50/p99 over a few runs; against the floor of the same database reading those two
// columns once (one aggregate scan: count, min and max of x and y), measured in the same run.
// Goal: p50 ≤ 1 s on 1M rows (the page waits for nothing else).
//
// Run: node bench/plot.ts [rows]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Field } from '../lib/datastore/contract.ts';
import { openEmbeddedDatastore } from '../lib/datastore/embedded.ts';
import { bucketsFor, envelope, DEFAULT_POINTS } from '../lib/datastore/plot.ts';
import { percentile } from './percentile.ts';

const rows = Number(process.argv[2] ?? 1_000_000);
const RUNS = 9;
const FIELDS: Field[] = [
  { id: 'Dehnung', type: 'numeric', info: { unit: 'http://qudt.org/vocab/unit/PERCENT' } },
  { id: 'Standardkraft', type: 'numeric', info: { unit: 'http://qudt.org/vocab/unit/N' } },
];

/** A tensile curve: steep rise, long plateau, break; with measurement noise. */
function* batches(): Generator<unknown[][]> {
  let seed = 42;
  const noise = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.4;
  for (let start = 0; start < rows; start += 10_000) {
    const batch: unknown[][] = [];
    for (let i = start; i < Math.min(rows, start + 10_000); i++) {
      const x = (i / rows) * 300;
      const y = x < 5 ? x * 11 : x < 295 ? 55 + x * 0.1 : 85 - (x - 295) * 6;
      batch.push([x, y + noise()]);
    }
    yield batch;
  }
}

const ms = (t: number) => `${t.toFixed(0)} ms`;

async function timed(fn: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

const dir = mkdtempSync(join(tmpdir(), 'labld-bench-plot-'));
try {
  const file = join(dir, 'datastore.sqlite');
  const store = await openEmbeddedDatastore(file);
  const start = performance.now();
  await store.create('curve', FIELDS);
  await store.insert('curve', batches());
  console.log(`${rows} rows inserted in ${ms(performance.now() - start)}`);

  let points = 0;
  const plot = await timed(async () => {
    const { buckets } = await store.buckets('curve', 'Dehnung', 'Standardkraft', bucketsFor(DEFAULT_POINTS));
    points = envelope(buckets).x.length;
  });
  // The floor: the same two columns read once by the same database file, on a connection of
  // its own (the table's name from the datastore's catalogue table).
  const db = new DatabaseSync(file, { readOnly: true });
  const { table_name: table } = db
    .prepare(`SELECT table_name FROM datastore_tables WHERE resource_id = 'curve'`)
    .get() as { table_name: string };
  const scan = db.prepare(`SELECT count(*) AS n, min(c1), max(c1), min(c2), max(c2) FROM "${table}"`);
  const floor = await timed(async () => scan.get());
  db.close();
  await store.close();
  const [p50, p99, f50] = [percentile(plot, 50), percentile(plot, 99), percentile(floor, 50)];
  console.log(
    `plot of ${rows} rows → ${points} points (embedded datastore): p50 ${ms(p50)}, p99 ${ms(p99)} over ${RUNS} runs (goal p50 ≤ 1 s)`,
  );
  console.log(`floor (one aggregate scan of the two columns): p50 ${ms(f50)}`);
  console.log(`ratio plot/floor: ${(p50 / f50).toFixed(1)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
