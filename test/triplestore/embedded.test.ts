// The TripleStore contract and escape suites on the embedded store (oxigraph in a worker,
// files under a temporary LABLD_DATA), then what only the embedded store promises:
// persistence across a restart and a kill -9, and a memory bound that lets datasets go.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openTripleStore, tripleStoreConfigFromEnv } from '../../lib/triplestore/open.ts';
import { openEmbeddedTripleStore } from '../../lib/triplestore/embedded/store.ts';
import type { QueryLimits } from '../../lib/triplestore/contract.ts';
import { tripleStoreConformance } from './conformance.ts';
import { escapeSuite } from './escape.ts';
import { boundsSuite } from './bounds-suite.ts';
import { DEFAULT_TEST_LIMITS, count, datasetId, graphOf, numbered, rows, turtle } from './support.ts';

const open = (dataDir: string, limits: Partial<QueryLimits> = {}, memoryTriples = 1_000_000) =>
  openTripleStore({ url: '', dataDir, limits: { ...DEFAULT_TEST_LIMITS, ...limits }, memoryTriples });

/** The embedded store itself, whose threads() the tests count. */
const openCounting = (dataDir: string, options: { idleMs?: number; workers?: number }) =>
  openEmbeddedTripleStore({ dataDir, limits: DEFAULT_TEST_LIMITS, memoryTriples: 1_000_000, ...options });

/** Runs `body` with a temporary data directory, removed afterwards. */
async function inDataDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labld-triplestore-'));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const environment = {
  name: 'embedded',
  async fresh() {
    const dataDir = mkdtempSync(join(tmpdir(), 'labld-triplestore-'));
    return {
      connect: (limits?: Partial<QueryLimits>) => open(dataDir, limits),
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
};

tripleStoreConformance(environment);
escapeSuite(environment);
boundsSuite(environment);

describe('embedded triple store: persistence and memory', () => {
  it('open: LABLD_TRIPLESTORE_URL empty is embedded, with the limits from configuration', () => {
    assert.deepEqual(
      tripleStoreConfigFromEnv({
        LABLD_DATA: '/d',
        LABLD_SPARQL_TIMEOUT_MS: '1234',
        LABLD_SPARQL_MAX_RESULTS: '9',
        LABLD_SPARQL_WORKERS: '3',
        LABLD_WORKER_IDLE_MS: '4321',
      }),
      {
        url: '',
        dataDir: '/d',
        limits: {
          timeoutMs: 1234,
          maxResults: 9,
          bounds: { maxNodes: 2000, maxDepth: 128, maxUnion: 100, maxPath: 32, maxValues: 1000 },
          memoryMb: 256,
        },
        memoryTriples: 5_000_000,
        workers: 3,
        idleMs: 4321,
      },
    );
  });

  it('graphs and updates survive closing and opening again', () =>
    inDataDir(async (dir) => {
      const ds = datasetId('p');
      const first = await open(dir);
      await first.replaceGraph(ds, graphOf(ds), turtle(numbered(5, 'kept')));
      await first.update(ds, `INSERT DATA { GRAPH <${graphOf(ds)}> { <urn:x:new> <urn:p:value> "added" } }`);
      await first.close();
      const second = await open(dir);
      assert.deepEqual(await second.graphs(ds), [graphOf(ds)]);
      assert.equal(count(await second.query(ds, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')), 6);
      await second.close();
    }));

  it('a load that finished survives kill -9; one killed midway leaves the old graph whole', () =>
    inDataDir(async (dir) => {
      const ds = datasetId('k');
      const child = (size: number, label: string) =>
        spawn(
          process.execPath,
          [new URL('./load-child.ts', import.meta.url).pathname, dir, ds, graphOf(ds), String(size), label],
          {
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
      const done = child(1000, 'first');
      await new Promise<void>((resolve) =>
        done.stdout.on('data', (d: Buffer) => d.includes('loaded') && resolve()),
      );
      done.kill('SIGKILL');
      const midway = child(400_000, 'second');
      await new Promise<void>((resolve) =>
        midway.stdout.on('data', (d: Buffer) => d.includes('loading') && resolve()),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      midway.kill('SIGKILL');
      await new Promise((resolve) => midway.on('exit', resolve));
      const store = await open(dir);
      const [row] = rows(
        await store.query(
          ds,
          'SELECT (COUNT(*) AS ?n) (MIN(?o) AS ?v) (COUNT(DISTINCT ?o) AS ?k) WHERE { ?s ?p ?o }',
        ),
      );
      // Either the first graph, or the second one if its load finished before the kill.
      assert.ok(
        (row!.n === '1000' && row!.v === 'first') || (row!.n === '400000' && row!.v === 'second'),
        JSON.stringify(row),
      );
      assert.equal(row!.k, '1');
      await store.close();
    }));

  it("a query's time counts from when oxigraph starts it, not while its dataset is read back from disk", () =>
    inDataDir(async (dir) => {
      const ds = datasetId('t');
      const writer = await open(dir);
      await writer.replaceGraph(ds, graphOf(ds), turtle(numbered(300_000, 'big'), 'application/n-triples'));
      await writer.close();
      // Reading 300,000 triples back takes far more than the query's 250 ms; the query itself, none.
      const store = await open(dir, { timeoutMs: 250 });
      try {
        const started = performance.now();
        assert.equal(count(await store.query(ds, 'SELECT (COUNT(*) AS ?n) WHERE { <urn:x:7> ?p ?o }')), 1);
        assert.ok(performance.now() - started > 250, 'the dataset took longer to read than the limit');
      } finally {
        await store.close();
      }
    }));

  it('datasets beyond the memory bound are let go and read back from disk when queried', () =>
    inDataDir(async (dir) => {
      const store = await open(dir, {}, 50);
      const ids = [datasetId('m'), datasetId('m'), datasetId('m')];
      for (const [i, ds] of ids.entries())
        await store.replaceGraph(ds, graphOf(ds), turtle(numbered(40, `d${i}`)));
      for (const round of [0, 1]) {
        for (const [i, ds] of ids.entries()) {
          assert.deepEqual(
            rows(await store.query(ds, 'SELECT DISTINCT ?o WHERE { ?s ?p ?o }')),
            [{ o: `d${i}` }],
            `round ${round}`,
          );
        }
      }
      await store.close();
    }));

  it('holds no thread until work comes, and lets its threads go once idle, the writer too', () =>
    inDataDir(async (dir) => {
      const ds = datasetId('idle');
      const store = await openCounting(dir, { idleMs: 200 });
      const threadsOnceIdle = async () => {
        for (const until = Date.now() + 20_000; store.threads() > 0 && Date.now() < until;) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return store.threads();
      };
      try {
        await store.ready();
        assert.equal(store.threads(), 0, 'opening and /readyz start no thread');
        await store.replaceGraph(ds, graphOf(ds), turtle(numbered(5, 'kept')));
        await store.update(
          ds,
          `INSERT DATA { GRAPH <${graphOf(ds)}> { <urn:x:new> <urn:p:value> "added" } }`,
        );
        assert.ok(store.threads() >= 1);
        assert.equal(await threadsOnceIdle(), 0, 'the idle writer was let go');
        // A fresh thread reads the load and the update back from disk.
        assert.equal(count(await store.query(ds, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }')), 6);
        await store.ready();
        assert.equal(await threadsOnceIdle(), 0);
      } finally {
        await store.close();
      }
    }));

  it('a query after a load goes to the thread that holds the dataset: no reader starts to read it back', () =>
    inDataDir(async (dir) => {
      const ds = datasetId('held');
      const store = await openCounting(dir, { workers: 2 });
      const all = 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }';
      try {
        await store.replaceGraph(ds, graphOf(ds), turtle(numbered(5, 'first')));
        assert.equal(count(await store.query(ds, all)), 5);
        assert.equal(store.threads(), 1, 'the writer answered from the copy it loaded');
        await store.replaceGraph(ds, graphOf(ds), turtle(numbered(7, 'second')));
        assert.equal(count(await store.query(ds, all)), 7);
        assert.equal(store.threads(), 1);
      } finally {
        await store.close();
      }
    }));
});
