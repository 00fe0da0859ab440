// The embedded store never dies for the next caller (issue 25, finding 1): a query that makes
// oxigraph trap ("memory access out of bounds") or grows the process's memory past
// LABLD_SPARQL_MEMORY_MB is refused
// with a 413 (a DomainError, so the bus does not retry it), the worker is replaced and reads
// the store back from disk, and the next query, and /readyz's query, are answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openTripleStore } from '../../lib/triplestore/open.ts';
import type { QueryLimits, TripleStore } from '../../lib/triplestore/contract.ts';
import { ORDINARY_QUERY, hostileData } from '../hostile/queries.ts';
import { DEFAULT_TEST_LIMITS, count, datasetId, graphOf, refused, turtle } from './support.ts';

/** Bounds too wide to stop anything: what oxigraph does with the query itself. */
const UNBOUNDED = { maxNodes: 1e9, maxDepth: 1e9, maxUnion: 1e9, maxPath: 1e9, maxValues: 1e9 };
const dir = mkdtempSync(join(tmpdir(), 'labld-triplestore-'));
const ds = datasetId('crash');
const open = (limits: Partial<QueryLimits>, workers = 2) =>
  openTripleStore({
    url: '',
    dataDir: dir,
    limits: { ...DEFAULT_TEST_LIMITS, ...limits },
    memoryTriples: 1e6,
    workers,
  });

before(async () => {
  const store = await open({});
  await store.replaceGraph(ds, graphOf(ds), turtle(hostileData(300)));
  await store.close();
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function answersNext(store: TripleStore): Promise<void> {
  await store.ready();
  assert.equal(count(await store.query(ds, ORDINARY_QUERY)), 600);
}

describe('embedded triple store: a query that breaks the worker', () => {
  it('an oxigraph trap is a 413 naming the failure; the worker is replaced and answers the next query', async () => {
    const store = await open({ bounds: UNBOUNDED });
    try {
      const union = `SELECT * WHERE { ${Array.from({ length: 3000 }, () => '{?s ?p 0}').join(' UNION ')} }`;
      const error = await refused(store.query(ds, union), 'too-large', 'query');
      assert.match(error.message, /memory access out of bounds/);
      assert.match(error.message, /restarted/);
      await answersNext(store);
    } finally {
      await store.close();
    }
  });

  it('a query growing memory past LABLD_SPARQL_MEMORY_MB is a 413 naming it; the memory is given back', async () => {
    const store = await open({ memoryMb: 64, timeoutMs: 120_000 });
    try {
      const before = process.memoryUsage.rss();
      const error = await refused(
        store.query(ds, 'SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY ?c ?f ?i LIMIT 1'),
        'too-large',
        'query',
      );
      assert.match(error.message, /LABLD_SPARQL_MEMORY_MB/);
      await answersNext(store);
      // The replaced worker's WASM memory is gone with it (generous: other tests' garbage).
      assert.ok(
        process.memoryUsage.rss() - before < 256 * 2 ** 20,
        `RSS grew ${(process.memoryUsage.rss() - before) / 2 ** 20} MiB`,
      );
    } finally {
      await store.close();
    }
  });
});

const slow = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }';

/** The order in which work settles, answered or refused. */
function settledOrder() {
  const order: string[] = [];
  const settled = (label: string, promise: Promise<unknown>) =>
    promise.then(
      () => order.push(label),
      () => order.push(label),
    );
  return { order, settled };
}

describe("embedded triple store: one dataset's expensive queries do not hold another's", () => {
  it("with one thread, another dataset's query runs after at most one of the queued expensive ones", async () => {
    const store = await open({ timeoutMs: 1500 }, 1);
    try {
      const other = datasetId('other');
      await store.replaceGraph(other, graphOf(other), turtle(hostileData(2)));
      const { order, settled } = settledOrder();
      const all = [1, 2, 3].map((i) => settled(`expensive ${i}`, store.query(ds, slow)));
      all.push(settled('other', store.query(other, 'ASK { ?s ?p ?o }')));
      await Promise.all(all);
      assert.deepEqual(order, ['expensive 1', 'other', 'expensive 2', 'expensive 3']);
    } finally {
      await store.close();
    }
  });

  it("with two threads, another dataset's query and load are done while the expensive query runs", async () => {
    // The expensive query runs until its time limit: long enough for the rest, however loaded.
    const store = await open({ timeoutMs: 6000 }, 2);
    try {
      const other = datasetId('other2');
      await store.replaceGraph(other, graphOf(other), turtle(hostileData(2)));
      const { order, settled } = settledOrder();
      const expensive = settled('expensive', store.query(ds, slow));
      const ask = settled('ask', store.query(other, 'ASK { ?s ?p ?o }'));
      const load = store.replaceGraph(other, graphOf(other), turtle(hostileData(3)));
      const afterLoad = settled(
        'query after the load',
        load.then(() => store.query(other, ORDINARY_QUERY)),
      );
      await Promise.all([expensive, ask, settled('load', load), afterLoad]);
      assert.equal(order.at(-1), 'expensive', order.join(', '));
    } finally {
      await store.close();
    }
  });

  it("a reader thread answers from the writer's latest load of the dataset it had in memory", async () => {
    const store = await open({}, 2);
    try {
      const other = datasetId('other3');
      await store.replaceGraph(other, graphOf(other), turtle(hostileData(2)));
      // The first query starts the reader, which reads the dataset into its memory.
      assert.equal(count(await store.query(other, ORDINARY_QUERY)), 4);
      await store.replaceGraph(other, graphOf(other), turtle(hostileData(3)));
      assert.equal(count(await store.query(other, ORDINARY_QUERY)), 6);
      await store.dropGraph(other, graphOf(other));
      assert.equal(count(await store.query(other, ORDINARY_QUERY)), 0);
    } finally {
      await store.close();
    }
  });
});
