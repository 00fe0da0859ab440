// labld under load (issue 25, finding 10): --clients clients (default 50) for --seconds
// (default 60), each looping over a mix of reads and uploads against a labld started as its
// own process (`labld start`), on the seed-sized data: the seed example.csv uploaded to a
// public dataset, run through the chain (the seed mapping selected) and loaded into the
// triple store. The mix, per request, by weight: the dataset page (HTML), package_show, the
// resource page with its table preview (datastore_search underneath), a SPARQL SELECT on the
// dataset's endpoint, and an upload of the seed CSV to a second dataset (its chain runs too).
//
// It prints p50/p99 per kind, the error count (any answer but 200, or no answer), labld's
// RSS at the start, its peak (VmHWM) and after the run, the machine's load average, and the goals: p99 ≤ 1 s for pages, ≤ 2 s for SPARQL, 0 errors, RSS back
// within 20% of the start. Before the load, the memory lines of issue 29: labld's RSS idle
// (fresh, /readyz answered, a few seconds later) against the goal of 180 MB, and its peak
// (VmHWM) once the seed CSV has gone through the chain; `--seconds 0` prints only those.
// "After the run" is: once the chain's backlog left by the uploads is worked off (no job waits
// for a worker, no message uncommitted; the time it took is printed), then --pause seconds more.
// The 50 clients upload far faster (700–1,500 files a minute) than the chain works them off: all
// go to one dataset, whose messages keep their order on one partition, about one upload a
// second. So the drain takes minutes, and --drain-limit (default 1800 s) is set to wait for it;
// RSS read with the backlog not drained is read while the workers still work, and says so.
// --pause (default 30 s) leaves labld what it takes to give back what it no longer needs: the
// workers end after LABLD_WORKER_IDLE_MS (5 s here), and the main thread's heap is compacted
// at the first quiet look after that (every 5 s, lib/process/quiet-collect.ts); RSS every 10 s
// of the pause is printed too.
// The bench starts labld with LABLD_WORKER_IDLE_MS of --worker-idle-ms (default 5000, below
// --pause), so the worker threads started for the load have been closed by then, as they are
// after LABLD_WORKER_IDLE_MS (default 60 s) in a labld of its own. Beside the times it prints
// labld's own counters over the run (bench/load-metrics.ts): the main thread's event-loop delay
// and each consumer group's mean wait for an operation worker.
// A bench: nothing here is asserted.
//
// Stores: `embedded` (SQLite and oxigraph), `postgres` (a fresh database on --database-url,
// default LABLD_TEST_DATABASE_URL, for the catalogue and the datastore), or `both` (default
// when a URL is known).
//
// Usage: node bench/load.ts [--clients 50] [--seconds 60 (0: the memory lines only)] [--store embedded|postgres|both]
//                           [--database-url postgres://…] [--pause 30] [--worker-idle-ms 5000]
//                           [--drain-limit 1800 (s)] [--upload-weight 1]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFixtureServer } from '../test/converter/fixture-server.ts';
import { freshDatabase } from '../test/support/database.ts';
import { readSeed, seedFixture } from '../test/support/shared.ts';
import { action, joined, library, startChild, upload, type Child, type Dict } from './labld-child.ts';
import { percentile } from './percentile.ts';
import { backlog, drained, heldLine, loopDelayLine, scrape, workerWaitLines } from './load-metrics.ts';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '60' },
    store: { type: 'string' },
    'database-url': { type: 'string', default: process.env['LABLD_TEST_DATABASE_URL'] ?? '' },
    pause: { type: 'string', default: '30' },
    'worker-idle-ms': { type: 'string', default: '5000' },
    'drain-limit': { type: 'string', default: '1800' },
    'upload-weight': { type: 'string', default: '1' },
  },
});
const clients = Number(values.clients);
const seconds = Number(values.seconds);
const databaseUrl = values['database-url'];
const stores =
  (values.store ?? (databaseUrl ? 'both' : 'embedded')) === 'both'
    ? ['embedded', 'postgres']
    : [values.store!];
if (!Number.isInteger(clients) || clients < 1 || !(seconds >= 0))
  throw new Error('--clients: a number > 0; --seconds: a number ≥ 0');
if (stores.includes('postgres') && !databaseUrl)
  throw new Error('--store postgres needs --database-url or LABLD_TEST_DATABASE_URL');

const MB = 1024 * 1024;
/** How long the chain's backlog may take to drain after the run before RSS is read anyway. */
const DRAIN_LIMIT_MS = Number(values['drain-limit']) * 1000;
/** How long a fresh labld is left after /readyz before its idle RSS is read. */
const SETTLE_MS = 5000;
const IDLE_GOAL_MB = 180;
const PAGE_KINDS = ['dataset page', 'package_show', 'preview page'] as const;
type Kind = (typeof PAGE_KINDS)[number] | 'sparql' | 'upload';
/** Relative weights of the mix; uploads from the flag. */
const WEIGHTS: [Kind, number][] = [
  ['dataset page', 3],
  ['package_show', 2],
  ['preview page', 2],
  ['sparql', 2],
  ['upload', Number(values['upload-weight'])],
];
const QUERY = 'SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 100';

process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
const files = await startFixtureServer();
const seedMapping = files.local(readSeed('rdfconverter/csvw-template-map.yaml'));
const seedCsv = readFileSync(seedFixture('csvtocsvw/example.csv'));

function pick(): Kind {
  const total = WEIGHTS.reduce((n, [, w]) => n + w, 0);
  let r = Math.random() * total;
  for (const [kind, weight] of WEIGHTS) if ((r -= weight) < 0) return kind;
  return WEIGHTS[0]![0];
}

/** labld's RSS once /readyz answers and it has had SETTLE_MS more: what it holds idle. */
async function idleRss(labld: Child): Promise<number> {
  for (const end = Date.now() + 120_000; ; await sleep(200)) {
    const status = await fetch(`${labld.url}/readyz`).then(
      (res) => res.arrayBuffer().then(() => res.status),
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > end) throw new Error('labld was not ready in 120 s');
  }
  await sleep(SETTLE_MS);
  return labld.rss();
}

/** The seed CSV through the chain and into the triple store: the ids the reads need. */
async function prepare(labld: Child): Promise<{ dataset: string; csv: string }> {
  await library(labld, seedMapping);
  await action(labld, 'package_create', { name: 'load-bench' });
  await action(labld, 'package_create', { name: 'load-uploads' });
  const csv = await upload(labld, 'load-bench', new Blob([seedCsv]), 'example.csv');
  await joined(labld, csv, 100);
  console.log(
    `peak RSS ${(labld.peakRss() / MB).toFixed(0)} MB through one seed upload (upload → joined graph)`,
  );
  const { run } = await action(labld, 'triplestore_load', { id: 'load-bench' });
  for (const end = Date.now() + 120_000; ;) {
    const load = (await action(labld, 'labld_status_show', { id: 'load-bench' })).triplestore as Dict | null;
    if (load?.run === run && load?.state === 'done') break;
    if (load?.run === run && load?.state === 'failed')
      throw new Error(`load failed: ${JSON.stringify(load)}`);
    if (Date.now() > end) throw new Error('the load into the triple store did not finish in 120 s');
    await sleep(200);
  }
  console.log(`peak RSS ${(labld.peakRss() / MB).toFixed(0)} MB after its Load into the triple store`);
  return { dataset: 'load-bench', csv };
}

/** One request of `kind`; true when answered 200 (its body read to the end). */
async function once(labld: Child, kind: Kind, ids: { dataset: string; csv: string }): Promise<boolean> {
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${labld.url}${path}`, { headers });
    await res.arrayBuffer();
    return res.status === 200;
  };
  switch (kind) {
    case 'dataset page':
      return get(`/dataset/${ids.dataset}`);
    case 'package_show':
      return get(`/api/3/action/package_show?id=${ids.dataset}`, { authorization: labld.token });
    case 'preview page':
      return get(`/dataset/${ids.dataset}/resource/${ids.csv}`);
    case 'sparql':
      return get(`/dataset/${ids.dataset}/triplestore/sparql?query=${encodeURIComponent(QUERY)}`, {
        accept: 'application/sparql-results+json',
      });
    case 'upload':
      await upload(labld, 'load-uploads', new Blob([seedCsv]), 'example.csv');
      return true;
  }
}

async function run(store: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'labld-load-'));
  const database = store === 'postgres' ? await freshDatabase('bench_load') : undefined;
  const labld = await startChild(dataDir, undefined, {
    LABLD_WORKER_IDLE_MS: values['worker-idle-ms'],
    ...(database ? { LABLD_DATABASE_URL: database.url } : {}),
  });
  try {
    const idle = await idleRss(labld);
    console.log(`\n== ${store}: memory`);
    console.log(
      `idle RSS ${(idle / MB).toFixed(0)} MB (goal ≤ ${IDLE_GOAL_MB} MB) ${idle / MB <= IDLE_GOAL_MB ? 'met' : 'MISSED'}`,
    );
    const ids = await prepare(labld);
    if (seconds === 0) return;
    const rssStart = labld.rss();
    const times = new Map<Kind, number[]>(WEIGHTS.map(([k]) => [k, []]));
    const errors = new Map<Kind, number>();
    const firstErrors: string[] = [];
    const metricsStart = await scrape(labld);
    const until = Date.now() + seconds * 1000;
    const load = loadavg();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (Date.now() < until) {
          const kind = pick();
          const start = performance.now();
          let ok = false;
          try {
            ok = await once(labld, kind, ids);
            if (!ok && firstErrors.length < 5) firstErrors.push(`${kind}: not 200`);
          } catch (error) {
            if (firstErrors.length < 5) firstErrors.push(`${kind}: ${(error as Error).message}`);
          }
          times.get(kind)!.push(performance.now() - start);
          if (!ok) errors.set(kind, (errors.get(kind) ?? 0) + 1);
        }
      }),
    );
    const loadEnd = loadavg();
    const metricsEnd = await scrape(labld);
    const drain = await drained(labld, DRAIN_LIMIT_MS);
    const peak = labld.peakRss();
    const samples: number[] = [];
    for (let waited = 0; waited < Number(values.pause); waited += 10) {
      await sleep(Math.min(10, Number(values.pause) - waited) * 1000);
      samples.push(labld.rss());
    }
    const rssAfter = labld.rss();
    const held = await scrape(labld);
    const left = backlog(metricsEnd);
    report(store, { times, errors, firstErrors, rssStart, peak, rssAfter, load, loadEnd, drain, left });
    console.log(
      `RSS every 10 s after the drain: ${samples.map((b) => `${(b / MB).toFixed(0)} MB`).join(', ')}`,
    );
    console.log(heldLine(held));
    console.log(loopDelayLine(metricsEnd));
    console.log('wait for an operation worker, by group: jobs, mean wait');
    for (const line of workerWaitLines(metricsStart, metricsEnd)) console.log(`  ${line}`);
  } finally {
    await labld.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Outcome {
  times: Map<Kind, number[]>;
  errors: Map<Kind, number>;
  firstErrors: string[];
  rssStart: number;
  peak: number;
  rssAfter: number;
  load: number[];
  loadEnd: number[];
  /** How long the backlog took to drain after the run (undefined: not within DRAIN_LIMIT_MS). */
  drain: number | undefined;
  /** The backlog at the run's end: jobs waiting for a worker and messages not committed. */
  left: number;
}

function report(store: string, o: Outcome): void {
  const ms = (n: number) => `${Math.round(n)} ms`;
  const loads = (l: number[]) => l.map((n) => n.toFixed(2)).join(' ');
  console.log(`\n== ${store}: ${clients} clients, ${seconds} s; ${cpus().length} cores`);
  console.log(`load average (1/5/15 min): ${loads(o.load)} at the start, ${loads(o.loadEnd)} at the end`);
  console.log('kind            requests     p50     p99  errors  goal');
  let worstPage = 0;
  let worstSparql = 0;
  for (const [kind, samples] of o.times) {
    const sorted = [...samples].sort((a, b) => a - b);
    const p50 = sorted.length ? percentile(sorted, 50) : NaN;
    const p99 = sorted.length ? percentile(sorted, 99) : NaN;
    const page = (PAGE_KINDS as readonly string[]).includes(kind);
    if (page) worstPage = Math.max(worstPage, p99);
    if (kind === 'sparql') worstSparql = p99;
    const goal = page ? 'p99 ≤ 1 s' : kind === 'sparql' ? 'p99 ≤ 2 s' : '';
    console.log(
      `${kind.padEnd(15)} ${String(sorted.length).padStart(8)} ${ms(p50).padStart(7)} ${ms(p99).padStart(7)} ${String(o.errors.get(kind) ?? 0).padStart(7)}  ${goal}`,
    );
  }
  const errors = [...o.errors.values()].reduce((n, e) => n + e, 0);
  const back = o.rssAfter / o.rssStart;
  const drain =
    o.drain === undefined
      ? `the backlog (${o.left} messages and jobs at the run's end) not drained in ${DRAIN_LIMIT_MS / 1000} s, the workers still busy`
      : `the backlog (${o.left} messages and jobs at the run's end) drained ${(o.drain / 1000).toFixed(0)} s after the run`;
  console.log(
    `RSS: ${(o.rssStart / MB).toFixed(0)} MB at the start, peak ${(o.peak / MB).toFixed(0)} MB, ` +
      `${(o.rssAfter / MB).toFixed(0)} MB ${values.pause} s after ${drain} ` +
      `(${((back - 1) * 100).toFixed(0)}% from the start; LABLD_WORKER_IDLE_MS=${values['worker-idle-ms']})`,
  );
  for (const line of o.firstErrors) console.log(`  error: ${line}`);
  const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
  console.log(
    `goals: pages p99 ≤ 1 s ${verdict(worstPage <= 1000)}; SPARQL p99 ≤ 2 s ${verdict(worstSparql <= 2000)}; ` +
      `0 errors ${verdict(errors === 0)} (${errors}); RSS within 20% ${verdict(back <= 1.2)}`,
  );
}

try {
  for (const store of stores) await run(store);
} finally {
  await files.stop();
}
