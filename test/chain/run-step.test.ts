// The chain consumers' shell (consumers/chain.ts): which messages run a step, what the step
// status says afterwards, and what is published for the next step.
import assert from 'node:assert/strict';
import { tempDir } from '../support/temp.ts';
import { after, before, test } from 'node:test';
import { openBus } from '../../lib/bus/open.ts';
import type { TransportBus } from '../../lib/bus/bus.ts';
import { loadTopics } from '../../lib/bus/topics.ts';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { finishStep, queueStep, startStep, type StepSummary } from '../../lib/chain/index.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import type { CatalogueStore } from '../../lib/catalogue/store/contract.ts';
import type { Datastore } from '../../lib/datastore/contract.ts';
import { openDatastore } from '../../lib/datastore/open.ts';
import { invalid, isDomainError, unreachable } from '../../lib/process/errors.ts';
import { runStep as runStepAlone, type ChainDeps, type StepResult } from '../../consumers/chain.ts';
import { relayOnce } from '../../consumers/outbox.ts';

let store: CatalogueStore;
let datastore: Datastore;
let bus: TransportBus;
let deps: ChainDeps;
/** What the shell published, and where. */
const sent: { topic: string; value: unknown; key: string | undefined }[] = [];
const catalog = loadTopics('topics.yaml');
let event: { dataset_id: string; resource_id: string; run: string };

before(async () => {
  const dataDir = tempDir('labld-run-step-');
  store = await openCatalogueStore({ dataDir });
  datastore = await openDatastore({ dataDir, databaseUrl: '' });
  bus = await openBus({ transport: 'embedded', dataDir, topicsFile: 'topics.yaml' }, catalog);
  // The real embedded bus, with what the shell publishes noted on the way (a spy, not a stand-in).

  const spied = new Proxy(bus, {
    get(target, prop) {
      if (prop === 'publish') {
        return async (topic: string, value: unknown, options?: { key?: string }) => {
          sent.push({ topic, value, key: options?.key });
          return target.publish(topic, value, options);
        };
      }
      const member = Reflect.get(target, prop, target) as unknown;
      return typeof member === 'function' ? (member as (...a: unknown[]) => unknown).bind(target) : member;
    },
  });
  deps = { bus: spied, catalog, store, datastore, blobs: blobStoreIn(dataDir), siteUrl: 'http://x' };
  const dataset = await store.createDataset({ name: 'run-step' });
  const csv = await store.createResource(dataset.id, { name: 'a.csv', url: 'https://example.org/a.csv' });
  event = { dataset_id: dataset.id, resource_id: csv.id, run: 'run-1' };
});
after(async () => {
  await bus.close();
  await datastore.close();
  await store.close();
});

/** A step run by the shell, then its outbox published by the relay: what it set off, on the bus. */
async function runStep(...args: Parameters<typeof runStepAlone>): Promise<void> {
  try {
    await runStepAlone(...args);
  } finally {
    await relayOnce(deps.bus, catalog, store);
  }
}

const at = () => new Date().toISOString();
const status = async (step: 'annotate' | 'import') =>
  (await store.getStepStatus(event.resource_id, step))?.status;
const queue = (run: string) =>
  store.putStepStatus({
    source_resource_id: event.resource_id,
    package_id: event.dataset_id,
    status: queueStep(undefined, { step: 'annotate', run, at: at() }),
  });

const calls: string[] = [];
const work =
  (result: StepResult | Error) =>
  async (input: { event: { run: string } }): Promise<StepResult> => {
    calls.push(input.event.run);
    if (result instanceof Error) throw result;
    return result;
  };
const passing = () =>
  work({ summary: { durationMs: 1, note: 'ok' }, next: { step: 'import', group: 'chain-import', event } });

test('a queued step runs: done with its summary, the next step queued and its event published', async () => {
  await queue('run-1');
  await runStep(deps, 'annotate', event, new AbortController().signal, passing());
  assert.deepEqual(calls, ['run-1']);
  const done = await status('annotate');
  assert.equal(done?.state, 'done');
  assert.equal(done?.state === 'done' && done.summary.note, 'ok');
  assert.equal((await status('import'))?.state, 'queued');
  assert.deepEqual(sent, [
    { topic: catalog.topicReadBy('chain-import').name, value: event, key: event.dataset_id },
  ]);
});

test('a redelivery of a done step, or an event of another run, runs nothing', async () => {
  calls.length = 0;
  sent.length = 0;
  await runStep(deps, 'annotate', event, new AbortController().signal, passing());
  await runStep(deps, 'annotate', { ...event, run: 'run-0' }, new AbortController().signal, passing());
  assert.deepEqual(calls, []);
  assert.deepEqual(sent, []);
});

test('a done step that may run again (RunAgain, a replay) acts only when its result changed', async () => {
  calls.length = 0;
  sent.length = 0;
  const again = { changed: (was: StepSummary, now: StepSummary) => was.note !== now.note };
  const signal = new AbortController().signal;
  const before = await status('annotate');
  await runStep(deps, 'annotate', event, signal, passing(), again);
  assert.deepEqual(calls, ['run-1'], 'it ran again');
  assert.deepEqual(sent, [], 'the same result: nothing published');
  assert.deepEqual(await status('annotate'), before, 'nor recorded');
  // The next step is done in this run: a changed result queues it again all the same.
  const queued = (await status('import'))!;
  await store.putStepStatus({
    source_resource_id: event.resource_id,
    package_id: event.dataset_id,
    status: finishStep(startStep(queued, 'run-1', at()), 'run-1', at(), { durationMs: 1 }),
  });
  const other = work({
    summary: { durationMs: 1, note: 'other' },
    next: { step: 'import', group: 'chain-import', event },
  });
  await runStep(deps, 'annotate', event, signal, other, again);
  const redone = await status('annotate');
  assert.equal(redone?.state === 'done' && redone.summary.note, 'other');
  assert.equal(redone?.attempt, before!.attempt + 1);
  assert.equal((await status('import'))?.state, 'queued');
  assert.deepEqual(sent, [
    { topic: catalog.topicReadBy('chain-import').name, value: event, key: event.dataset_id },
  ]);
  // Running again may fail (e.g. a broken mapping now): recorded on the step, and rethrown.
  await assert.rejects(
    runStep(deps, 'annotate', event, signal, work(invalid('the mapping is broken', 'mapping')), again),
    /broken/,
  );
  const failed = await status('annotate');
  assert.equal(failed?.state === 'failed' && failed.failure.detail, 'the mapping is broken');
});

test('a step left running by a crash runs again when its message comes again', async () => {
  calls.length = 0;
  await store.putStepStatus({
    source_resource_id: event.resource_id,
    package_id: event.dataset_id,
    status: startStep(queueStep(undefined, { step: 'annotate', run: 'run-2', at: at() }), 'run-2', at()),
  });
  await runStep(deps, 'annotate', { ...event, run: 'run-2' }, new AbortController().signal, passing());
  assert.deepEqual(calls, ['run-2']);
  const done = await status('annotate');
  assert.equal(done?.state, 'done');
  assert.equal(done?.attempt, 2);
});

test('a failing step records the failure in words and rethrows it (for the retry or the dead letter)', async () => {
  await queue('run-3');
  const error = invalid('line 3: not a table', 'file');
  await assert.rejects(
    runStep(deps, 'annotate', { ...event, run: 'run-3' }, new AbortController().signal, work(error)),
    (e) => e === error,
  );
  const failed = await status('annotate');
  assert.equal(failed?.state, 'failed');
  if (failed?.state !== 'failed') return;
  assert.equal(failed.failure.detail, 'file: line 3: not a table');
  assert.equal(failed.failure.retryable, false);
  assert.match(failed.failure.action, /upload a corrected version/);
});

test('an upstream that was down fails the step as retryable and reaches the bus as an error it retries', async () => {
  await queue('run-3b');
  const error = unreachable('template_url: https://example.org/t.ttl answered 503', 'template_url');
  await assert.rejects(
    runStep(deps, 'annotate', { ...event, run: 'run-3b' }, new AbortController().signal, work(error)),
    (e) => !isDomainError(e) && e instanceof Error && e.cause === error && /answered 503/.test(e.message),
  );
  const failed = await status('annotate');
  assert.equal(failed?.state === 'failed' && failed.failure.retryable, true);
  assert.match(failed?.state === 'failed' ? failed.failure.action : '', /retried by itself/);
});

test('a source deleted while its step ran: what the step wrote goes, nothing is published', async () => {
  const dataset = await store.getDataset(event.dataset_id);
  const other = await store.createResource(dataset!.id, { name: 'b.csv', url: 'https://example.org/b.csv' });
  const gone = { ...event, resource_id: other.id, run: 'run-4' };
  await store.putStepStatus({
    source_resource_id: other.id,
    package_id: dataset!.id,
    status: queueStep(undefined, { step: 'annotate', run: 'run-4', at: at() }),
  });
  sent.length = 0;
  await runStep(deps, 'annotate', gone, new AbortController().signal, async () => {
    // The step stores its output, and meanwhile the user deletes the source.
    await store.upsertDerived(
      { package_id: dataset!.id, source_resource_id: other.id, step: 'annotate' },
      { name: 'b-metadata.jsonld', url: 'b-metadata.jsonld' },
    );
    await store.deleteResource(other.id);
    return { summary: { durationMs: 1 }, next: { step: 'import', group: 'chain-import', event: gone } };
  });
  assert.deepEqual(sent, []);
  assert.deepEqual(await store.listStepStatus({ source_resource_id: other.id }), []);
  const names = (await store.listResources(dataset!.id)).map((r) => r.name);
  assert.deepEqual(names, ['a.csv'], 'no derived resource of the deleted source is left');
});

test('a step of an older run that ends after the source was replaced writes nothing, publishes nothing', async () => {
  // run-5 is under way at import when a new version of the file starts run-6.
  for (const [step, run] of [
    ['annotate', 'run-5'],
    ['import', 'run-5'],
  ] as const) {
    await store.putStepStatus({
      source_resource_id: event.resource_id,
      package_id: event.dataset_id,
      status: queueStep(undefined, { step, run, at: at() }),
    });
  }
  const old = { ...event, run: 'run-5' };
  sent.length = 0;
  await runStep(deps, 'import', old, new AbortController().signal, async () => {
    await store.putStepStatus({
      source_resource_id: event.resource_id,
      package_id: event.dataset_id,
      status: queueStep(undefined, { step: 'annotate', run: 'run-6', at: at() }),
    });
    return { summary: { durationMs: 1 }, next: { step: 'describe', group: 'chain-describe', event: old } };
  });
  assert.deepEqual(sent, []);
  assert.equal((await status('import'))?.state, 'running', 'left for the new run to queue again');
  assert.equal((await store.getStepStatus(event.resource_id, 'describe'))?.status, undefined);
});

test("a step's events leave by the outbox only, kept with its done status: the next step's, and the load under auto-load", async () => {
  const id = event.dataset_id;
  const csv = await store.createResource(id, { name: 'c.csv', url: 'https://example.org/c.csv' });
  const converted = { ...event, resource_id: csv.id, run: 'run-7' };
  const queued = queueStep(undefined, { step: 'annotate', run: 'run-7', at: at() });
  await store.putStepStatus({ source_resource_id: csv.id, package_id: id, status: queued });
  await relayOnce(deps.bus, catalog, store);
  sent.splice(0);
  const result: StepResult = {
    summary: { durationMs: 1 },
    next: { step: 'import', group: 'chain-import', event: converted },
    loadDataset: true,
  };
  await runStepAlone(deps, 'annotate', converted, new AbortController().signal, work(result));
  assert.equal(sent.length, 0, 'nothing published by the step itself');
  assert.deepEqual(
    (await store.pendingEvents(10)).map((e) => [e.event, e.key, e.payload]),
    [
      ['step.annotated', id, converted],
      ['triplestore.load', id, { dataset_id: id, reason: 'load' }],
    ],
  );
  assert.equal((await store.getStepStatus(csv.id, 'annotate'))?.status.state, 'done');
  assert.equal((await store.getStepStatus(id, 'load'))?.status.state, 'queued');
  assert.equal(await relayOnce(deps.bus, catalog, store), 2);
  assert.deepEqual(
    sent.map((m) => [m.topic, m.key]),
    [
      [catalog.topicReadBy('chain-import').name, id],
      [catalog.topicReadBy('load-triplestore').name, id],
    ],
  );
});
