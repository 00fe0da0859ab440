// Triple store benchmark: the seed joined graph (fixtures/seed-examples/datapipeline/
// sample-joined.ttl, one tensile test result with three QUDT quantity values) repeated with
// fresh subjects and varied values up to --triples (default 1M), loaded as one resource's graph
// into the embedded store and, when LABLD_TEST_TRIPLESTORE_URL is set (tools/fuseki/server.sh
// url), into that server, side by side:
//
//   load:    replaceGraph from the Turtle file, triples/s end to end (goal ≥ 200,000 embedded)
//   first:   the first query after the load, once (the store's thread that loaded the graph
//            answers it; a thread without it would read it back from disk first)
//   queries: five typical query-builder steps on the loaded dataset, p50 / p99 over --runs
//
// and, first, the embedded load against native Oxigraph (issue 29): PyPI pyoxigraph's
// `Store().bulk_load` of the same file into a memory store (venv /tmp/labld-oxigraphvenv, made
// when missing), timed inside Python, interleaved with the embedded load --pairs times; each
// pair's ratio and their min / median (goal ≥ 0.8×).
//
// Run: node bench/triplestore.ts [--triples 1000000] [--runs 20] [--pairs 3]
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { TripleStore } from '../lib/triplestore/contract.ts';
import { resourceGraphIri } from '../lib/triplestore/contract.ts';
import { openTripleStore } from '../lib/triplestore/open.ts';
import { venvPython } from './venv.ts';

const { values } = parseArgs({
  options: {
    triples: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '20' },
    pairs: { type: 'string', default: '3' },
  },
});
const target = Number(values.triples);
const runs = Number(values.runs);
const pairs = Number(values.pairs);
const shared = (
  process.env['LABLD_SHARED_DIR'] ?? new URL('../../shared/', import.meta.url).pathname
).replace(/\/?$/, '/');
const seedPath = `${shared}fixtures/seed-examples/datapipeline/sample-joined.ttl`;
const SEED_TRIPLES = 14;

const PREFIXES = `PREFIX pmdco: <https://github.com/materialdigital/core-ontology/tree/main/pmdco#>
PREFIX qudt: <http://qudt.org/schema/qudt/>
PREFIX unit: <http://qudt.org/vocab/unit/>
`;
/** What the sentence builder asks, step by step: classes, a class's properties, a filter, units, a range. */
const QUERIES: [string, string][] = [
  [
    'classes and counts',
    'SELECT ?class (COUNT(?s) AS ?n) WHERE { ?s a ?class } GROUP BY ?class ORDER BY DESC(?n)',
  ],
  ['properties of results', 'SELECT DISTINCT ?p WHERE { ?s a pmdco:TensileTestResult ; ?p ?o }'],
  [
    'strength in MPa > 220',
    'SELECT ?r ?v WHERE { ?r pmdco:hasTensileStrength ?q . ?q qudt:numericValue ?v ; qudt:unit unit:MegaPA FILTER(?v > 220) } LIMIT 100',
  ],
  [
    'units of quantity values',
    'SELECT ?unit (COUNT(*) AS ?n) WHERE { ?q a qudt:QuantityValue ; qudt:unit ?unit } GROUP BY ?unit',
  ],
  [
    'elongation range',
    'SELECT (MIN(?v) AS ?min) (MAX(?v) AS ?max) (AVG(?v) AS ?avg) WHERE { ?r pmdco:hasElongation/qudt:numericValue ?v }',
  ],
];

/** The seed's statements (prefixes apart, comments dropped) repeated with a new subject and values. */
async function scaledGraph(path: string): Promise<{ triples: number; bytes: number }> {
  const seed = readFileSync(seedPath, 'utf8')
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n');
  const split = seed.lastIndexOf('@prefix');
  const head = seed.slice(0, seed.indexOf('\n', split) + 1);
  const body = seed.slice(seed.indexOf('\n', split) + 1);
  const out = createWriteStream(path);
  out.write(head);
  const copies = Math.ceil(target / SEED_TRIPLES);
  for (let i = 0; i < copies; i++) {
    const copy = body
      .replace('ex:result_23', `ex:result_${i}`)
      .replace('"180"', `"${150 + (i % 97)}"`)
      .replace('"120"', `"${100 + (i % 53)}"`)
      .replace('"3.2"', `"${(1 + (i % 41) / 10).toFixed(1)}"`);
    if (!out.write(copy)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { triples: copies * SEED_TRIPLES, bytes: statSync(path).size };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

interface Measured {
  load: string;
  /** The first query after the load: what someone who just pressed Load waits for. */
  first: string;
  queries: string[];
}

interface Timed {
  seconds: number;
  /** CPU time of the loading process (here: this process, the store's worker included). */
  cpu: number;
}

/** One replaceGraph of the file, timed end to end. */
async function timeLoad(store: TripleStore, dataset: string, file: string, triples: number): Promise<Timed> {
  const graph = resourceGraphIri('https://catalogue.test', dataset, 'r1', 'sample-joined.ttl');
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const loaded = await store.replaceGraph(dataset, graph, {
    format: 'text/turtle',
    body: createReadStream(file),
  });
  const seconds = (performance.now() - started) / 1000;
  // This process's CPU (the embedded store's worker and V8's helper threads included): on a
  // shared machine it varies far less than the wall time; for a server, the client's share.
  const used = process.cpuUsage(cpuBefore);
  if (loaded.triples !== triples) throw new Error(`loaded ${loaded.triples} triples, expected ${triples}`);
  return { seconds, cpu: (used.user + used.system) / 1e6 };
}

/** Native Oxigraph: pyoxigraph's bulk_load into a memory store, timed inside Python (start-up excluded). */
const PYOXIGRAPH = `
import json, sys, time, pyoxigraph as ox
path, graph = sys.argv[1], sys.argv[2]
store = ox.Store()
t, c = time.perf_counter(), time.process_time()
store.bulk_load(path=path, format=ox.RdfFormat.TURTLE, base_iri=graph, to_graph=ox.NamedNode(graph))
seconds, cpu = time.perf_counter() - t, time.process_time() - c
print(json.dumps({"seconds": seconds, "cpu": cpu, "triples": len(store), "version": ox.__version__}))
`;

function timePyoxigraph(python: string, file: string, triples: number): Timed & { version: string } {
  const graph = resourceGraphIri('https://catalogue.test', 'native', 'r1', 'sample-joined.ttl');
  const out = execFileSync(python, ['-c', PYOXIGRAPH, file, graph], { encoding: 'utf8' });
  const result = JSON.parse(out.trim().split('\n').pop()!) as Timed & { triples: number; version: string };
  if (result.triples !== triples) throw new Error(`pyoxigraph loaded ${result.triples}, expected ${triples}`);
  return result;
}

const rate = (triples: number, t: Timed) =>
  `${Math.round(triples / t.seconds).toLocaleString('en')} /s (${t.seconds.toFixed(1)} s, CPU ${t.cpu.toFixed(1)} s)`;

/** Embedded and native loads interleaved (so that the machine's load hits both alike), with ratios. */
async function againstNative(store: TripleStore, file: string, triples: number): Promise<void> {
  const python = venvPython('oxigraph', 'pyoxigraph', 'pyoxigraph');
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  // pyoxigraph's import and Store() are outside its timer; so is the embedded store's start (its
  // thread, oxigraph's module compiled and instantiated), made here by a first job on no data.
  // What the first load still pays beyond later ones is the tier-up of the loader's code.
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await store.graphs(`bench-start-${process.pid}`);
  const cpu = process.cpuUsage(cpuBefore);
  console.log(
    `  embedded store started (its thread, oxigraph's module) in ${((performance.now() - started) / 1000).toFixed(2)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s: not timed, as pyoxigraph's import and Store() are not`,
  );
  for (let i = 0; i < pairs; i++) {
    const dataset = `bench-native-${process.pid}-${i}`;
    const ours = await timeLoad(store, dataset, file, triples);
    await store.dropDataset(dataset);
    const native = timePyoxigraph(python, file, triples);
    ratios.push(native.seconds / ours.seconds);
    cpuRatios.push(native.cpu / ours.cpu);
    console.log(
      `  pair ${i + 1}: embedded ${rate(triples, ours)}; pyoxigraph ${native.version} bulk_load ${rate(triples, native)}; ` +
        `ratio ${ratios.at(-1)!.toFixed(2)}× (by CPU ${cpuRatios.at(-1)!.toFixed(2)}×)`,
    );
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(
    `embedded load / native Oxigraph (pyoxigraph bulk_load, same file): min ${sorted[0]!.toFixed(2)}×, ` +
      `median ${median.toFixed(2)}× of ${pairs} interleaved pairs (goal ≥ 0.8×) [load average ${loadavg()[0]!.toFixed(1)}]`,
  );
}

async function measure(label: string, store: TripleStore, file: string, triples: number): Promise<Measured> {
  const dataset = `bench-${process.pid}`;
  const timed = await timeLoad(store, dataset, file, triples);
  const started = performance.now();
  await store.query(dataset, PREFIXES + QUERIES[0]![1]);
  const first = `${(performance.now() - started).toFixed(0)} ms`;
  const queries: string[] = [];
  for (const [, text] of QUERIES) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await store.query(dataset, PREFIXES + text);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    queries.push(`${percentile(times, 50).toFixed(0)} / ${percentile(times, 99).toFixed(0)} ms`);
  }
  await store.dropDataset(dataset);
  const load = rate(triples, timed);
  // As soon as measured: a slow server later in the run does not hide what is known.
  console.log(`  ${label}: load ${load}; first query after it ${first}; queries ${queries.join(', ')}`);
  return { load, first, queries };
}

const dir = mkdtempSync(join(tmpdir(), 'labld-bench-triplestore-'));
try {
  const file = join(dir, 'joined.ttl');
  const { triples, bytes } = await scaledGraph(file);
  console.log(
    `seed joined graph (${SEED_TRIPLES} triples) scaled to ${triples.toLocaleString('en')} triples, ${(bytes / 1e6).toFixed(1)} MB Turtle; ${runs} runs per query`,
  );
  const limits = { timeoutMs: 600_000, maxResults: 1_000_000 };
  const columns: [string, Measured][] = [];
  const embedded = await openTripleStore({
    url: '',
    dataDir: join(dir, 'data'),
    limits,
    memoryTriples: 10_000_000,
  });
  await againstNative(embedded, file, triples);
  columns.push(['embedded (oxigraph)', await measure('embedded', embedded, file, triples)]);
  await embedded.close();
  const url = process.env['LABLD_TEST_TRIPLESTORE_URL'];
  if (url) {
    const remote = await openTripleStore({ url, dataDir: '', limits, memoryTriples: 0 });
    columns.push([`Fuseki (${url})`, await measure('Fuseki', remote, file, triples)]);
    await remote.close();
  } else {
    console.log('LABLD_TEST_TRIPLESTORE_URL is not set: the embedded store only');
  }
  const rowsOut: string[][] = [
    ['', ...columns.map(([name]) => name)],
    ['load, triples/s', ...columns.map(([, m]) => m.load)],
    [`first query after the load (${QUERIES[0]![0]})`, ...columns.map(([, m]) => m.first)],
    ...QUERIES.map(([name], i) => [`${name}, p50 / p99`, ...columns.map(([, m]) => m.queries[i]!)]),
  ];
  const widths = rowsOut[0]!.map((_, c) => Math.max(...rowsOut.map((r) => r[c]!.length)));
  for (const r of rowsOut) console.log(r.map((cell, c) => cell.padEnd(widths[c]!)).join('  '));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
