// The Kafka member's window of records in flight, without a broker: a stand-in for the kafkajs
// consumer hands batches to eachBatch the way kafkajs's runner does (the next batch of a
// partition only after the previous eachBatch returned) and records resolveOffset and the
// commits. The conformance suite checks the same contract against a real broker in CI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EachBatchPayload, Kafka, Offsets } from 'kafkajs';
import { GroupMember } from '../../lib/bus/kafka/consumer.ts';
import { Namespace, resolveOptions } from '../../lib/bus/kafka/client.ts';
import type { RawRecord } from '../../lib/bus/contract.ts';
import { log } from '../../lib/process/log.ts';
import { waitFor, sleep } from '../support/wait.ts';

const TOPIC = 'window.topic';

type Listener = (event: { payload: Record<string, unknown> }) => void;

/** A kafkajs consumer stand-in: the member's eachBatch, its events, what it resolved and committed. */
function standIn() {
  const listeners = new Map<string, Listener[]>();
  const emit = (event: string, payload: Record<string, unknown>) =>
    (listeners.get(event) ?? []).forEach((listener) => listener({ payload }));
  let eachBatch: ((payload: EachBatchPayload) => Promise<void>) | undefined;
  const state = { resolved: [] as string[], commits: [] as number[], paused: false, disconnected: false };
  const consumer = {
    events: { GROUP_JOIN: 'join', REBALANCING: 'rebalancing', CRASH: 'crash' },
    on(event: string, listener: Listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return () =>
        listeners.set(
          event,
          listeners.get(event)!.filter((l) => l !== listener),
        );
    },
    async connect() {},
    async subscribe() {},
    async run(config: { eachBatch: (payload: EachBatchPayload) => Promise<void> }) {
      eachBatch = config.eachBatch;
      setImmediate(() => emit('join', { memberAssignment: { [TOPIC]: [0] } }));
    },
    pause() {
      state.paused = true;
    },
    async disconnect() {
      state.disconnected = true;
    },
  };
  /** Hand a batch of `offsets` of partition 0 to eachBatch; resolves when eachBatch returns. */
  const batch = (offsets: number[]) =>
    eachBatch!({
      batch: {
        topic: TOPIC,
        partition: 0,
        highWatermark: '100',
        messages: offsets.map((offset) => ({
          offset: String(offset),
          key: null,
          value: Buffer.from(String(offset)),
          headers: {},
          timestamp: '0',
          attributes: 0,
        })),
      },
      heartbeat: async () => {},
      isRunning: () => true,
      isStale: () => false,
      resolveOffset: (offset: string) => void state.resolved.push(offset),
      commitOffsetsIfNecessary: async (offsets?: Offsets) => {
        for (const t of offsets!.topics) for (const p of t.partitions) state.commits.push(Number(p.offset));
      },
    } as unknown as EachBatchPayload);
  return { kafka: { consumer: () => consumer } as unknown as Kafka, emit, batch, state };
}

/** A handler whose records finish when the test says so (or reject when their signal is aborted). */
function controlled() {
  const started: number[] = [];
  const finished: number[] = [];
  const gates = new Map<number, PromiseWithResolvers<void>>();
  const gate = (offset: number) => {
    if (!gates.has(offset)) gates.set(offset, Promise.withResolvers<void>());
    return gates.get(offset)!;
  };
  const handler = async (record: RawRecord, signal: AbortSignal) => {
    started.push(record.offset);
    await new Promise<void>((resolve, reject) => {
      gate(record.offset).promise.then(resolve);
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
    finished.push(record.offset);
  };
  return { handler, started, finished, release: (offset: number) => gate(offset).resolve() };
}

async function member(
  concurrency: number,
  handler: (record: RawRecord, signal: AbortSignal) => Promise<void>,
) {
  const fake = standIn();
  const joined = await GroupMember.join(
    TOPIC,
    'window-group',
    handler,
    {
      kafka: fake.kafka,
      names: new Namespace(''),
      options: resolveOptions({ brokers: ['nowhere:9092'], heartbeatIntervalMs: 20 }),
      logger: log,
    },
    { concurrency },
  );
  return { ...fake, joined };
}

test(
  'eachBatch returns with a slow record in flight; later records run; the commit waits for the slow one',
  { timeout: 10_000 },
  async () => {
    const h = controlled();
    const m = await member(2, h.handler);
    await m.batch([0, 1]);
    assert.deepEqual(m.state.resolved, ['0', '1'], 'the fetch position moved past both');
    h.release(1);
    await waitFor('record 1', () => h.finished.includes(1));
    await m.batch([2]); // fetched while 0 still runs
    h.release(2);
    await waitFor('record 2', () => h.finished.includes(2));
    await sleep(20);
    assert.deepEqual(m.state.commits, [], 'nothing committed past the running record 0');
    h.release(0);
    await waitFor('the commit', () => m.state.commits.length > 0);
    assert.deepEqual(m.state.commits, [3]);
    await m.joined.stop();
  },
);

test('no more than `concurrency` run: eachBatch waits for room', { timeout: 10_000 }, async () => {
  const h = controlled();
  const m = await member(2, h.handler);
  let returned = false;
  const pending = m.batch([0, 1, 2]).then(() => (returned = true));
  await waitFor('two started', () => h.started.length === 2);
  await sleep(50);
  assert.deepEqual(h.started, [0, 1]);
  assert.equal(returned, false, 'eachBatch waits while two run');
  h.release(1);
  await pending;
  assert.deepEqual(h.started, [0, 1, 2]);
  h.release(0);
  h.release(2);
  await waitFor('the commit past all three', () => m.state.commits.at(-1) === 3);
  await m.joined.stop();
});

test(
  'a rebalance aborts the records in flight; a finished one behind them is not committed',
  { timeout: 10_000 },
  async () => {
    const h = controlled();
    const m = await member(2, h.handler);
    await m.batch([0, 1]);
    h.release(1);
    await waitFor('record 1', () => h.finished.includes(1));
    m.emit('rebalancing', {});
    await sleep(20);
    assert.deepEqual(h.finished, [1], 'record 0 was aborted');
    assert.deepEqual(m.state.commits, [], 'record 1 finished behind it: not committed');
    m.emit('join', { memberAssignment: { [TOPIC]: [0] } });
    // The new generation fetches from the committed offset: both come again.
    const again = m.batch([0, 1]);
    h.release(0);
    await again;
    await waitFor('both again', () => h.finished.length === 3);
    await waitFor('the commit of the new generation', () => m.state.commits.at(-1) === 2);
    await m.joined.stop();
  },
);

test(
  'stop aborts the records in flight, commits the finished prefix, pauses fetching and leaves',
  { timeout: 10_000 },
  async () => {
    const h = controlled();
    const m = await member(3, h.handler);
    await m.batch([0, 1, 2]);
    h.release(0);
    await waitFor('record 0', () => h.finished.includes(0));
    h.release(2);
    await waitFor('record 2', () => h.finished.includes(2));
    await m.joined.stop();
    assert.deepEqual(m.state.commits, [1], 'past record 0 only: record 1 was unfinished');
    assert.deepEqual([m.state.paused, m.state.disconnected], [true, true]);
  },
);

test('concurrency 1: one record at a time, in order, each committed', { timeout: 10_000 }, async () => {
  let active = 0;
  let overlaps = 0;
  const order: number[] = [];
  const m = await member(1, async (record) => {
    active += 1;
    if (active > 1) overlaps += 1;
    await sleep(5);
    order.push(record.offset);
    active -= 1;
  });
  await m.batch([0, 1, 2]);
  await m.batch([3]);
  await waitFor('four records', () => order.length === 4);
  await waitFor('the last commit', () => m.state.commits.at(-1) === 4);
  assert.deepEqual(order, [0, 1, 2, 3]);
  assert.equal(overlaps, 0, 'never two at once');
  assert.deepEqual(
    m.state.commits.filter((offset, i, all) => i === 0 || offset > all[i - 1]!),
    m.state.commits,
    'commits only move forward',
  );
  await m.joined.stop();
});
