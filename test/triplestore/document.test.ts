// How the embedded store takes a load's document: a whole file's read stream (the blob store's,
// as the chain's load reads it) is copied by the kernel and never read through JavaScript; a
// stream of part of a file, or of a file that cannot be opened, is handled as before.
import assert from 'node:assert/strict';
import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openEmbeddedTripleStore } from '../../lib/triplestore/embedded/store.ts';
import { tempDir } from '../support/temp.ts';
import { DEFAULT_TEST_LIMITS, count, datasetId, graphOf, numbered } from './support.ts';

async function withStore(
  body: (store: Awaited<ReturnType<typeof openEmbeddedTripleStore>>, dir: string) => Promise<void>,
) {
  const dir = tempDir('labld-document-');
  const store = await openEmbeddedTripleStore({
    dataDir: dir,
    limits: DEFAULT_TEST_LIMITS,
    memoryTriples: 1_000_000,
  });
  try {
    await body(store, dir);
  } finally {
    await store.close();
  }
}

const triples = async (store: Awaited<ReturnType<typeof openEmbeddedTripleStore>>, ds: string) =>
  count(await store.query(ds, 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'));

describe('embedded triple store: the document of a load', () => {
  it("copies a whole file's read stream without reading it through JavaScript", () =>
    withStore(async (store, dir) => {
      const ds = datasetId('file');
      const file = join(dir, 'doc.ttl');
      writeFileSync(file, numbered(30, 'whole'));
      const body = createReadStream(file);
      assert.deepEqual(await store.replaceGraph(ds, graphOf(ds), { format: 'text/turtle', body }), {
        triples: 30,
      });
      assert.equal(body.bytesRead, 0, 'bytes the stream read');
      assert.equal(await triples(store, ds), 30);
    }));

  it('loads only the part of the file that a ranged read stream gives', () =>
    withStore(async (store, dir) => {
      const ds = datasetId('range');
      const file = join(dir, 'doc.nt');
      const text = numbered(10, 'part');
      writeFileSync(file, text);
      // The first four lines, whole.
      const end = text.split('\n').slice(0, 4).join('\n').length;
      const body = createReadStream(file, { start: 0, end });
      const loaded = await store.replaceGraph(ds, graphOf(ds), { format: 'application/n-triples', body });
      assert.deepEqual(loaded, { triples: 4 });
    }));

  it('fails the load of a file that cannot be opened, and the store goes on', () =>
    withStore(async (store, dir) => {
      const ds = datasetId('missing');
      const body = createReadStream(join(dir, 'no-such.ttl'));
      await assert.rejects(store.replaceGraph(ds, graphOf(ds), { format: 'text/turtle', body }), /ENOENT/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(await store.graphs(ds), []);
    }));
});
