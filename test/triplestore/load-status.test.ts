// The dataset's load status (lib/chain/load-status.ts) on a real catalogue store and the
// embedded triple store: Load queues, the load runs and ends done with graphs and triples; a
// dataset whose every graph is bad ends failed in words; a load that throws is failed and
// rethrown; a sync of a dataset never loaded leaves no status; labld_status_show tells it apart
// from the chain's steps.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runActionAs } from '../../lib/catalogue/actions/index.ts';
import type { Dataset } from '../../lib/catalogue/model.ts';
import { unreachable } from '../../lib/process/errors.ts';
import { loadDataset } from '../../lib/chain/load.ts';
import { loadStatus, queueLoad, withLoadStatus } from '../../lib/chain/load-status.ts';
import { person, viewerOf, type Catalogue } from '../catalogue/actions/support.ts';
import { SAMPLE_TTL } from './endpoint-support.ts';
import { loadFixture, type LoadFixture, type StoreLoadDeps } from './load-support.ts';

let fixture: LoadFixture;
let catalogue: Catalogue;
let deps: StoreLoadDeps;
let withTurtle: LoadFixture['withTurtle'];

before(async () => {
  fixture = await loadFixture();
  ({ catalogue, deps, withTurtle } = fixture);
});
after(() => fixture?.dispose());

const load = (dataset: Dataset, reason: 'load' | 'sync' = 'load') =>
  withLoadStatus(deps.store, dataset.id, reason, () => loadDataset(deps, dataset.id, reason));

test('Load queues; the load runs that run and ends done with its graphs and triples', async () => {
  const dataset = await deps.store.createDataset({ name: 'good' });
  await withTurtle(dataset, 'a-joined.ttl', SAMPLE_TTL);
  const queued = await queueLoad(deps.store, dataset.id);
  assert.equal(queued.state, 'queued');
  await load(dataset);
  const done = await loadStatus(deps.store, dataset.id);
  assert.equal(done?.state, 'done');
  assert.equal(done.run, queued.run);
  assert.equal(done.state === 'done' && done.summary.triples, 4);
  assert.equal(done.state === 'done' && done.summary.note, '1 graph');
  // Loading again is a new run.
  await load(dataset);
  assert.notEqual((await loadStatus(deps.store, dataset.id))?.run, queued.run);
});

test('every graph bad: failed, in words, with what to do; a throwing load: failed and rethrown', async () => {
  const dataset = await deps.store.createDataset({ name: 'bad' });
  await withTurtle(dataset, 'b.ttl', '<http://ex.org/a> <http://ex.org/p> .');
  await load(dataset);
  const failed = await loadStatus(deps.store, dataset.id);
  assert.equal(failed?.state, 'failed');
  assert.equal(failed.state === 'failed' && failed.failure.kind, 'invalid');
  assert.match(failed.state === 'failed' ? failed.failure.action : '', /press Load/);
  await assert.rejects(
    withLoadStatus(deps.store, dataset.id, 'load', () => Promise.reject(unreachable('the store is down'))),
    /the store is down/,
  );
  const down = await loadStatus(deps.store, dataset.id);
  assert.equal(down?.state === 'failed' && down.failure.retryable, true);
});

test('a sync of a dataset never loaded leaves no status; labld_status_show tells the load apart', async () => {
  const dataset = await deps.store.createDataset({ name: 'never' });
  await withTurtle(dataset, 'c.ttl', SAMPLE_TTL);
  await load(dataset, 'sync');
  assert.equal(await loadStatus(deps.store, dataset.id), undefined);
  const admin = await viewerOf(deps.store, await person(deps.store, 'root', true));
  const before = (await runActionAs(catalogue.deps, admin, 'labld_status_show', { id: 'never' })) as Record<
    string,
    unknown
  >;
  assert.equal(before.triplestore, null);
  await load(dataset);
  const after = (await runActionAs(catalogue.deps, admin, 'labld_status_show', { id: 'never' })) as Record<
    string,
    unknown
  >;
  assert.deepEqual(after.resources, []);
  assert.equal((after.triplestore as { state: string }).state, 'done');
});

test('Load pressed while a load runs: its run stays queued, and the load that follows ends it done', async () => {
  const dataset = await deps.store.createDataset({ name: 'pressed-twice' });
  await withTurtle(dataset, 'd-joined.ttl', SAMPLE_TTL);
  let pressed: Awaited<ReturnType<typeof queueLoad>> | undefined;
  await withLoadStatus(deps.store, dataset.id, 'load', async () => {
    pressed = await queueLoad(deps.store, dataset.id);
    return loadDataset(deps, dataset.id, 'load');
  });
  const waiting = await loadStatus(deps.store, dataset.id);
  assert.equal(waiting?.state, 'queued');
  assert.equal(waiting.run, pressed?.run);
  await load(dataset, 'sync');
  const done = await loadStatus(deps.store, dataset.id);
  assert.equal(done?.state, 'done');
  assert.equal(done.run, pressed?.run);
});
