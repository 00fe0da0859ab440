// Datastore benchmark: the embedded candidates (node:sqlite, PGlite) and PostgreSQL side by
// side on one generated CSV (default 1M rows × 20 columns: 16 numeric, 4 text), each in its
// own child process so that its peak RSS is its own (with labld's semi-space setting,
// LABLD_SEMI_SPACE_MB, as `labld start` runs).
//
//   import: the CSV read by its CSVW descriptor and inserted in batches (lib/datastore/import.ts),
//           rows/s end to end (goal ≥ 300,000 rows/s embedded), and the CPU seconds the
//           import's process spent (on a shared machine, steadier than the wall clock)
//   index:  the indexes the preview's pages read, made after the import as the chain's import
//           step makes them (Datastore.indexForPreview), in seconds
//   page:   a filtered, sorted page of 100 rows (a category filter, a numeric column sorted
//           descending, the total counted), p50/p99 over 50 queries (goal p99 ≤ 300 ms, p50 ≤ 50 ms)
//
//   sqlite3: Debian's sqlite3 CLI `.import` of the same file into a typed table (default settings),
//           in the same run: node:sqlite's import rows/s against it (goal ≥ 1.0×)
//
// PostgreSQL is LABLD_TEST_DATABASE_URL, else tools/postgres/server.sh's URL; its server's
// memory is not in the RSS column (the client's is).
//
// Run: npm run bench:datastore [-- rows [candidates, comma-separated]]
import { spawnSync } from 'node:child_process';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  rmSync,
  writeFileSync,
  readFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Datastore } from '../lib/datastore/contract.ts';
import { openEmbeddedDatastore } from '../lib/datastore/embedded.ts';
import { openPostgresDatastore, PgClient, postgresDialect, type PgLike } from '../lib/datastore/postgres.ts';
import { SqlDatastore } from '../lib/datastore/sql.ts';
import { importCsv } from '../lib/datastore/import.ts';
import { semiSpaceArgs } from '../lib/process/heap.ts';
import { peakRssBytes } from '../test/support/rss.ts';
import { percentile } from './percentile.ts';

const CANDIDATES = ['node:sqlite', 'PGlite', 'PostgreSQL'] as const;
type Candidate = (typeof CANDIDATES)[number];
const CATEGORIES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
const NUMERIC = 16;
const QUERIES = 50;

/** A small deterministic generator, so that every candidate reads the same file. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function generate(dir: string, rows: number): Promise<{ csv: string; descriptor: string }> {
  const csv = join(dir, 'bench.csv');
  const numeric = Array.from({ length: NUMERIC }, (_, i) => `value ${i + 1}`);
  const header = ['id', 'category', 'specimen', 'note', ...numeric];
  const descriptor = {
    url: 'bench.csv',
    dialect: { delimiter: ',', headerRowCount: 1 },
    tableSchema: {
      columns: header.map((title, i) => ({
        titles: title,
        datatype: i === 0 ? 'integer' : i < 4 ? 'string' : 'double',
      })),
    },
  };
  const out = createWriteStream(csv);
  const next = random(13);
  out.write(header.join(',') + '\n');
  let chunk = '';
  for (let r = 0; r < rows; r++) {
    const cells = [
      String(r + 1),
      CATEGORIES[Math.floor(next() * CATEGORIES.length)],
      `S-${Math.floor(next() * 1e6).toString(36)}`,
      next() < 0.1 ? '"broken, retested"' : 'ok',
    ];
    for (let i = 0; i < NUMERIC; i++) cells.push((next() * 1000 - 200).toFixed(3));
    chunk += cells.join(',') + '\n';
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  const descriptorFile = join(dir, 'bench-metadata.json');
  writeFileSync(descriptorFile, JSON.stringify(descriptor));
  return { csv, descriptor: descriptorFile };
}

/** PGlite under the same SQL as PostgreSQL: one connection, so a transaction is that one. */
async function openPglite(dir: string): Promise<{ store: Datastore; close: () => Promise<void> }> {
  const db = new PGlite(join(dir, 'pglite'));
  const connection = db as unknown as PgLike;
  const client = new PgClient(
    connection,
    async () => ({ client: connection, release: () => {} }),
    () => db.close(),
  );
  await db.query('CREATE SCHEMA IF NOT EXISTS datastore');
  await db.query('SET search_path TO datastore'); // as openPostgresDatastore's connections
  const store = new SqlDatastore(client, postgresDialect, 'datastore');
  await store.migrate();
  return { store, close: () => store.close() };
}

async function openCandidate(
  candidate: Candidate,
  dir: string,
): Promise<{ store: Datastore; close: () => Promise<void> }> {
  if (candidate === 'node:sqlite') {
    const store = await openEmbeddedDatastore(join(dir, 'datastore.sqlite'));
    return { store, close: () => store.close() };
  }
  if (candidate === 'PGlite') return openPglite(dir);
  const url = process.env.LABLD_TEST_DATABASE_URL || 'postgres://labld@127.0.0.1:15432/labld';
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const store = await openPostgresDatastore(url, schema);
  return {
    store,
    async close() {
      await store.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

/**
 * Debian's sqlite3 CLI importing the same file into a table typed as the datastore's (INTEGER,
 * TEXT, REAL), its wall and CPU seconds (GNU time); undefined when either is not installed.
 */
function sqlite3Import(csv: string, rows: number): { seconds: number; cpu: number } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'labld-bench-sqlite3-'));
  try {
    const numeric = Array.from({ length: NUMERIC }, (_, i) => `v${i + 1} REAL`);
    const script = [
      `CREATE TABLE bench (id INTEGER, category TEXT, specimen TEXT, note TEXT, ${numeric.join(', ')});`,
      `.import --csv --skip 1 ${csv} bench`,
    ].join('\n');
    const started = performance.now();
    const run = spawnSync('/usr/bin/time', ['-f', '%U %S', 'sqlite3', join(dir, 'db.sqlite')], {
      input: script,
      encoding: 'utf8',
    });
    const seconds = (performance.now() - started) / 1000;
    if (run.status !== 0) return undefined;
    const [user, system] = (run.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
    const count = spawnSync('sqlite3', [join(dir, 'db.sqlite'), 'SELECT count(*) FROM bench'], {
      encoding: 'utf8',
    });
    if (Number(count.stdout.trim()) !== rows) return undefined;
    return { seconds, cpu: (user ?? 0) + (system ?? 0) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One candidate, in this (child) process: prints one JSON line. */
async function measure(candidate: Candidate, csv: string, descriptorFile: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labld-bench-ds-'));
  const { store, close } = await openCandidate(candidate, dir);
  try {
    const descriptor = JSON.parse(readFileSync(descriptorFile, 'utf8')) as unknown;
    const started = performance.now();
    const cpu = process.cpuUsage();
    const info = await importCsv(store, 'bench', descriptor, { body: createReadStream(csv) }, csv);
    const importSeconds = (performance.now() - started) / 1000;
    const { user, system } = process.cpuUsage(cpu);
    // As the chain's import step does after the rows: the indexes the preview's pages read.
    const indexing = performance.now();
    await store.indexForPreview('bench');
    const indexSeconds = (performance.now() - indexing) / 1000;
    const times: number[] = [];
    const next = random(7);
    let rows = 0;
    for (let q = 0; q < QUERIES; q++) {
      const t0 = performance.now();
      const page = await store.search({
        resource_id: 'bench',
        filters: { category: CATEGORIES[Math.floor(next() * CATEGORIES.length)] },
        sort: `"value ${1 + Math.floor(next() * NUMERIC)}" desc`,
        limit: 100,
      });
      times.push(performance.now() - t0);
      rows += page.records.length;
    }
    times.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        candidate,
        rows: info.count,
        importSeconds,
        importCpuSeconds: (user + system) / 1e6,
        indexSeconds,
        rowsPerSecond: info.count / importSeconds,
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        pageRows: rows / QUERIES,
        rssMiB: peakRssBytes() / 2 ** 20,
      }),
    );
  } finally {
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [flag, candidate, csvFile, descriptorFile] = process.argv.slice(2);
  if (flag === '--candidate')
    return measure(candidate as Candidate, csvFile as string, descriptorFile as string);
  const rows = Number(flag ?? 1_000_000);
  const only = process.argv[3]?.split(',') ?? CANDIDATES;
  const dir = mkdtempSync(join(tmpdir(), 'labld-bench-csv-'));
  try {
    const t0 = performance.now();
    const { csv, descriptor } = await generate(dir, rows);
    console.log(
      `CSV: ${rows} rows × 20 columns (16 numeric, 4 text), made in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const sqlite3 = sqlite3Import(csv, rows);
    const sqlite3Rate = sqlite3 ? rows / sqlite3.seconds : undefined;
    console.log(
      sqlite3
        ? `sqlite3 CLI .import (typed table): ${Math.round(rows / sqlite3.seconds).toLocaleString('en')} rows/s, ${sqlite3.seconds.toFixed(1)} s, CPU ${sqlite3.cpu.toFixed(1)} s`
        : 'sqlite3 CLI not found (apt-get install -y sqlite3 time): no ratio',
    );
    console.log(
      'store         import rows/s   import s   import CPU s   index s   page p50 ms   page p99 ms   rows/page   peak RSS MiB',
    );
    for (const candidate of CANDIDATES.filter((c) => only.includes(c))) {
      const child = spawnSync(
        process.execPath,
        [...(semiSpaceArgs([]) ?? []), import.meta.filename, '--candidate', candidate, csv, descriptor],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
          maxBuffer: 1 << 20,
        },
      );
      const line = child.stdout.trim().split('\n').at(-1) ?? '';
      if (child.status !== 0 || !line.startsWith('{')) {
        console.log(`${candidate.padEnd(13)} failed (exit ${child.status})`);
        continue;
      }
      const r = JSON.parse(line) as Record<string, number>;
      console.log(
        [
          candidate.padEnd(13),
          Math.round(r.rowsPerSecond as number)
            .toLocaleString('en')
            .padStart(13),
          (r.importSeconds as number).toFixed(1).padStart(10),
          (r.importCpuSeconds as number).toFixed(1).padStart(14),
          (r.indexSeconds as number).toFixed(1).padStart(9),
          (r.p50 as number).toFixed(1).padStart(13),
          (r.p99 as number).toFixed(1).padStart(13),
          String(r.pageRows).padStart(11),
          (r.rssMiB as number).toFixed(0).padStart(14),
        ].join(' '),
      );
      if (candidate === 'node:sqlite' && sqlite3Rate !== undefined && sqlite3) {
        const ratio = (r.rowsPerSecond as number) / sqlite3Rate;
        const cpu = (r.importCpuSeconds as number) / sqlite3.cpu;
        console.log(
          `node:sqlite import / sqlite3 CLI .import: ${ratio.toFixed(2)}× its rows/s (goal ≥ 1.0×), ${cpu.toFixed(2)}× its CPU`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
