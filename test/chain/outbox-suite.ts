// The catalogue's outbox and step status tables (migration 3), its dead letters (migration 4),
// and the relay that publishes the outbox: an event is kept only with the change it reports, published in order, and forgotten
// only once the bus took it. Run on the embedded store (outbox.test.ts) and PostgreSQL
// (outbox.postgres.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Bus } from '../../lib/bus/contract.ts';
import { loadTopics } from '../../lib/bus/topics.ts';
import { failStep, finishStep, queueStep, startStep, type DeadLetter } from '../../lib/chain/index.ts';
import type { CatalogueStore } from '../../lib/catalogue/store/contract.ts';
import { invalid } from '../../lib/process/errors.ts';
import { relayOnce } from '../../consumers/outbox.ts';
import { onOutboxWritten } from '../../lib/catalogue/store/outbox-signal.ts';
import { sleep } from '../support/wait.ts';

export const catalog = loadTopics('topics.yaml');

/** A bus that records what it is given, and refuses the topics in `down`. */
export function recordingBus(down = new Set<string>()) {
  const sent: { topic: string; value: unknown; key: string | undefined }[] = [];
  const bus = {
    publish: async (topic: string, value: unknown, options?: { key?: string }) => {
      if (down.has(topic)) throw new Error('broker down');
      sent.push({ topic, value, key: options?.key });
      return { topic, partition: 0, offset: sent.length - 1 };
    },
  } as unknown as Bus;
  return { bus, sent };
}

/** The nth event of the test. */
export const ev = (n: number) => ({
  dataset_id: `d${n}`,
  resource_id: `r${n}`,
  run: `run${n}`,
  name: 'a.csv',
});

const uploaded = catalog.topicReadBy('chain-annotate').name;
const deleted = catalog.topicReadBy('chain-forget').name;

/** The suite on a fresh store from `open`; `dispose` after it (close and drop). */
export function outboxSuite(
  name: string,
  open: () => Promise<{ store: CatalogueStore; dispose(): Promise<void> }>,
) {
  describe(`chain outbox and step status: ${name}`, () => {
    let store: CatalogueStore;
    let dispose: () => Promise<void>;
    before(async () => {
      ({ store, dispose } = await open());
    });
    after(() => dispose());

    test('an event is kept with the change it reports, and not when the change is rolled back', async () => {
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.addEvent({ event: 'resource.uploaded', key: 'd0', payload: ev(0) });
          throw invalid('rolled back', 'x');
        }),
      );
      assert.deepEqual(await store.pendingEvents(10), []);
      await store.transaction((tx) => tx.addEvent({ event: 'resource.uploaded', key: 'd1', payload: ev(1) }));
      assert.deepEqual(
        (await store.pendingEvents(10)).map((e) => [e.event, e.key, e.payload]),
        [['resource.uploaded', 'd1', ev(1)]],
      );
    });

    test('the relay publishes in the order written, keyed by dataset, and forgets what the bus took', async () => {
      await store.addEvent({ event: 'resource.deleted', key: 'd2', payload: ev(2) });
      await store.addEvent({ event: 'resource.uploaded', key: 'd1', payload: ev(3) });
      // The broker refuses deletions: the first upload goes out, the deletion and all after it stay.
      const failing = recordingBus(new Set([deleted]));
      await assert.rejects(relayOnce(failing.bus, catalog, store), /broker down/);
      assert.deepEqual(failing.sent, [{ topic: uploaded, value: ev(1), key: 'd1' }]);
      assert.deepEqual(
        (await store.pendingEvents(10)).map((e) => e.payload),
        [ev(2), ev(3)],
      );
      const working = recordingBus();
      assert.equal(await relayOnce(working.bus, catalog, store), 2);
      assert.deepEqual(working.sent, [
        { topic: deleted, value: ev(2), key: 'd2' },
        { topic: uploaded, value: ev(3), key: 'd1' },
      ]);
      assert.deepEqual(await store.pendingEvents(10), []);
      assert.equal(await relayOnce(working.bus, catalog, store), 0);
    });

    test('the relays of this process hear of an event once it is committed: not before, not when rolled back', async () => {
      let heard = 0;
      const stop = onOutboxWritten(() => heard++);
      try {
        await store.transaction(async (tx) => {
          await tx.addEvent({ event: 'resource.uploaded', key: 'd9', payload: ev(9) });
          await tx.transaction((inner) =>
            inner.addEvent({ event: 'resource.deleted', key: 'd9', payload: ev(9) }),
          );
          assert.equal(heard, 0, 'not while the transaction is open');
        });
        assert.equal(heard, 1, 'once, when it committed');
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.addEvent({ event: 'resource.uploaded', key: 'd9', payload: ev(9) });
            throw invalid('rolled back', 'x');
          }),
        );
        await store.transaction((tx) => tx.getDataset('none'));
        assert.equal(heard, 1, 'not for a rollback, nor for a transaction that wrote no event');
        await store.addEvent({ event: 'resource.uploaded', key: 'd9', payload: ev(9) });
        assert.equal(heard, 2, 'an event written alone is committed at once');
      } finally {
        stop();
        await store.removeEvents((await store.pendingEvents(10)).map((e) => e.seq));
      }
    });

    test('step status: every state round-trips; listed per dataset or source; gone with the dataset', async () => {
      const dataset = await store.createDataset({ name: 'status-test' });
      const csv = await store.createResource(dataset.id, { name: 'a.csv', url: 'https://example.org/a.csv' });
      const key = { source_resource_id: csv.id, package_id: dataset.id };
      const queued = queueStep(undefined, { step: 'annotate', run: 'r1', at: '2026-01-01T00:00:00.000Z' });
      const running = startStep(queued, 'r1', '2026-01-01T00:00:01.000Z');
      const done = finishStep(running, 'r1', '2026-01-01T00:00:02.000Z', { durationMs: 1000, note: 'ok' });
      const describing = startStep(
        queueStep(undefined, { step: 'describe', run: 'r1', at: '2026-01-01T00:00:03.000Z' }),
        'r1',
        '2026-01-01T00:00:04.000Z',
      );
      const failed = failStep(describing, 'r1', '2026-01-01T00:00:05.000Z', invalid('bad cell', 'csv_url'));
      for (const status of [queued, running, done]) {
        await store.putStepStatus({ ...key, status });
        assert.deepEqual((await store.getStepStatus(csv.id, 'annotate'))?.status, status);
      }
      // select-mapping waiting for the library (migration 10 lets the state in).
      const selecting = startStep(
        queueStep(undefined, { step: 'select-mapping', run: 'r1', at: '2026-01-01T00:00:06.000Z' }),
        'r1',
        '2026-01-01T00:00:07.000Z',
      );
      const waiting = finishStep(
        selecting,
        'r1',
        '2026-01-01T00:00:08.000Z',
        { durationMs: 5 },
        'needs-mapping',
      );
      await store.putStepStatus({ ...key, status: waiting });
      assert.deepEqual((await store.getStepStatus(csv.id, 'select-mapping'))?.status, waiting);
      // Across the catalogue, by step and state: the sources a new mapping selects again.
      const needing = await store.listStepStatus({ step: 'select-mapping', state: 'needs-mapping' });
      assert.deepEqual(
        needing.map((r) => r.source_resource_id),
        [csv.id],
      );
      assert.deepEqual(await store.listStepStatus({ step: 'select-mapping', state: 'done' }), []);
      assert.deepEqual(await store.listStepStatus({}), [], 'a filter naming nothing lists nothing');
      await store.putStepStatus({ ...key, status: failed });
      assert.deepEqual((await store.getStepStatus(csv.id, 'describe'))?.status, failed);
      assert.equal(failed.state === 'failed' && failed.failure.detail, 'csv_url: bad cell');
      const listed = await store.listStepStatus({ package_id: dataset.id });
      assert.deepEqual(listed.map((r) => r.status.step).sort(), ['annotate', 'describe', 'select-mapping']);
      assert.equal((await store.listStepStatus({ source_resource_id: csv.id })).length, 3);
      await store.deleteDataset(dataset.id);
      assert.deepEqual(await store.listStepStatus({ source_resource_id: csv.id }), []);
    });

    test('dead letters: kept once per id, listed per dataset oldest first, forgotten by id or source and group', async () => {
      const dataset = await store.createDataset({ name: 'dead-letter-test' });
      const letter = (id: string, group: string, at: string): DeadLetter => ({
        id,
        package_id: dataset.id,
        source_resource_id: 'r1',
        run: 'run1',
        group,
        topic: 'labld.chain.annotated',
        error: 'DomainError: csv_url: line 3 is not numeric',
        attempts: 1,
        failed_at: at,
        key: dataset.id,
        payload: { dataset_id: dataset.id, resource_id: 'r1', run: 'run1' },
      });
      const late = letter('dlq/0/1', 'chain-import', '2026-01-01T00:00:02.000Z');
      const early = letter('dlq/0/0', 'chain-describe', '2026-01-01T00:00:01.000Z');
      await store.addDeadLetter(late);
      await store.addDeadLetter(early);
      // A redelivered dead letter (same place on its topic) is not kept twice, nor changed.
      await store.addDeadLetter({ ...late, error: 'another' });
      assert.deepEqual(await store.listDeadLetters({ package_id: dataset.id }), [early, late]);
      assert.deepEqual(await store.getDeadLetter('dlq/0/1'), late);
      await store.deleteDeadLetters({ source_resource_id: 'r1', group: 'chain-describe' });
      assert.deepEqual(await store.listDeadLetters({ package_id: dataset.id }), [late]);
      await store.deleteDeadLetters({ id: 'dlq/0/1' });
      assert.equal(await store.getDeadLetter('dlq/0/1'), undefined);
      await store.addDeadLetter(early);
      await store.deleteDataset(dataset.id);
      assert.deepEqual(await store.listDeadLetters({ package_id: dataset.id }), []);
    });
  });
}

/**
 * Two relays (catalogue replicas) on one database, each with its own store: while one holds the
 * outbox the other gets nothing, and together they publish each event once, in order.
 */
export function relayTurnsTest(
  name: string,
  open: () => Promise<{ a: CatalogueStore; b: CatalogueStore; dispose(): Promise<void> }>,
) {
  test(`two relays on one database take turns: each event is published once, in order (${name})`, async () => {
    const { a, b, dispose } = await open();
    const sent: string[] = [];
    // A publish that takes a while, so that the relays' batches would overlap if they could.
    const bus = {
      publish: async (topic: string, value: { run: string }) => {
        await sleep(2);
        sent.push(value.run);
        return { topic, partition: 0, offset: sent.length - 1 };
      },
    } as unknown as Bus;
    try {
      const runs = Array.from({ length: 60 }, (_, n) => `run${n}`);
      for (const run of runs) {
        await a.addEvent({
          event: 'resource.uploaded',
          key: 'd1',
          payload: { dataset_id: 'd1', resource_id: 'r1', run, name: 'a.csv' },
        });
      }
      const held = await a.claimOutbox(async () => b.claimOutbox(async () => 'ran'));
      assert.equal(held, undefined);
      const relay = async (store: CatalogueStore) => {
        let total = 0;
        for (let n = -1; n !== 0;) total += n = await relayOnce(bus, catalog, store);
        return total;
      };
      const [byA, byB] = await Promise.all([relay(a), relay(b)]);
      for (let again = 0; (await a.pendingEvents(1)).length > 0 && again < 10; again++) await relay(a);
      assert.deepEqual(sent, runs, 'every event once, in the order written');
      assert.equal(byA + byB, runs.length);
    } finally {
      await dispose();
    }
  });
}
