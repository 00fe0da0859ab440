// loadDataset (lib/chain/load.ts) on a real catalogue store and the embedded triple store:
// a bad document is skipped and named while the others load; a sync leaves a dataset that was
// never loaded alone; the endpoint resource is made once; a deleted dataset loses its graphs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TripleStore } from '../../lib/triplestore/contract.ts';
import { ENDPOINT_NAME, loadDataset } from '../../lib/chain/load.ts';
import { SITE } from '../catalogue/actions/support.ts';
import { SAMPLE_TTL } from './endpoint-support.ts';
import { loadFixture, type LoadFixture, type StoreLoadDeps } from './load-support.ts';

let fixture: LoadFixture;
let tripleStore: TripleStore;
let deps: StoreLoadDeps;
let withTurtle: LoadFixture['withTurtle'];

before(async () => {
  fixture = await loadFixture();
  ({ tripleStore, deps, withTurtle } = fixture);
});
after(() => fixture?.dispose());

test('a bad document is skipped and named; the good one is loaded; the endpoint resource is made once', async () => {
  const dataset = await deps.store.createDataset({ name: 'mixed' });
  const good = await withTurtle(dataset, 'good.ttl', SAMPLE_TTL);
  const bad = await withTurtle(dataset, 'bad.ttl', '<http://ex.org/a> <http://ex.org/p> .');
  const first = await loadDataset(deps, dataset.id, 'load');
  assert.deepEqual(
    first.loaded.map((l) => [l.resource_id, l.graph, l.triples]),
    [[good.id, `${SITE}/dataset/${dataset.id}/resource/${good.id}/download/good.ttl`, 4]],
  );
  assert.deepEqual(
    first.failed.map((f) => f.resource_id),
    [bad.id],
  );
  assert.match(first.failed[0]!.error, /body/);
  const again = await loadDataset(deps, dataset.id, 'load');
  assert.equal(again.endpoint, first.endpoint);
  const endpoints = (await deps.store.listResources(dataset.id)).filter((r) => r.name === ENDPOINT_NAME);
  assert.deepEqual(
    endpoints.map((r) => [r.url, r.url_type, r.format]),
    [[`${SITE}/dataset/${dataset.id}/triplestore/sparql`, 'link', 'SPARQL']],
  );
});

test('a sync leaves a dataset never loaded alone; after a load it follows deletions', async () => {
  const dataset = await deps.store.createDataset({ name: 'synced' });
  const resource = await withTurtle(dataset, 'one-joined.ttl', SAMPLE_TTL);
  const untouched = await loadDataset(deps, dataset.id, 'sync');
  assert.deepEqual(untouched, { loaded: [], failed: [], dropped: [], endpoint: undefined, rows: false });
  assert.deepEqual(await tripleStore.graphs(dataset.id), []);
  await loadDataset(deps, dataset.id, 'load');
  assert.equal((await tripleStore.graphs(dataset.id)).length, 1);
  await deps.store.deleteResource(resource.id);
  const synced = await loadDataset(deps, dataset.id, 'sync');
  assert.equal(synced.dropped.length, 1);
  assert.deepEqual(await tripleStore.graphs(dataset.id), []);
});

test('a deleted dataset loses its graphs', async () => {
  const dataset = await deps.store.createDataset({ name: 'deleted' });
  await withTurtle(dataset, 'x.ttl', SAMPLE_TTL);
  await loadDataset(deps, dataset.id, 'load');
  assert.equal((await tripleStore.graphs(dataset.id)).length, 1);
  await deps.store.deleteDataset(dataset.id);
  await loadDataset(deps, dataset.id, 'sync');
  assert.deepEqual(await tripleStore.graphs(dataset.id), []);
});

test('two loads of one dataset at once (a rebalance overlapping them) leave one endpoint resource', async () => {
  const dataset = await deps.store.createDataset({ name: 'overlapping' });
  await withTurtle(dataset, 'good.ttl', SAMPLE_TTL);
  const [a, b] = await Promise.all([
    loadDataset(deps, dataset.id, 'load'),
    loadDataset(deps, dataset.id, 'load'),
  ]);
  const endpoints = (await deps.store.listResources(dataset.id)).filter((r) => r.name === ENDPOINT_NAME);
  assert.equal(endpoints.length, 1);
  assert.deepEqual([a.endpoint, b.endpoint], [endpoints[0]!.id, endpoints[0]!.id]);
});
