// Parts of the Kafka transport that need no broker (runs in `npm test`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { Kafka, Offsets } from 'kafkajs';
import { Namespace, resolveOptions, defaultClientId } from '../../lib/bus/kafka/client.ts';
import { headersOf, isRevocation, toRawRecord } from '../../lib/bus/kafka/records.ts';
import { OffsetCommits } from '../../lib/bus/kafka/commits.ts';
import { RecordProducer } from '../../lib/bus/kafka/producer.ts';

test('a namespace prefixes topics and groups and strips the prefix again', () => {
  const names = new Namespace('t1.');
  assert.equal(names.topic('labld.replies.gw-1'), 't1.labld.replies.gw-1');
  assert.equal(names.group('annotator-requests'), 't1.annotator-requests');
  assert.equal(names.local('t1.labld.replies.gw-1'), 'labld.replies.gw-1');
  assert.equal(new Namespace('').topic('x'), 'x');
});

test('options: defaults, a unique safe client id per instance, unsafe names refused', () => {
  const options = resolveOptions({ brokers: ['127.0.0.1:19092'] });
  assert.equal(options.topicPrefix, '');
  assert.equal(options.sessionTimeoutMs, 10_000);
  assert.match(options.clientId, /^[A-Za-z0-9._-]+$/);
  assert.notEqual(defaultClientId(), defaultClientId());
  assert.throws(() => resolveOptions({ brokers: [] }), /at least one broker/);
  assert.throws(() => resolveOptions({ brokers: ['b:1'], clientId: 'a/b' }), /unsafe/);
  assert.throws(() => resolveOptions({ brokers: ['b:1'], topicPrefix: 'x y' }), /unsafe/);
});

test('records: Buffer keys and headers become text; a repeated header keeps its first value', () => {
  assert.deepEqual(headersOf({ a: Buffer.from('1'), b: '2', c: [Buffer.from('3'), '4'], d: undefined }), {
    a: '1',
    b: '2',
    c: '3',
  });
  const record = toRawRecord('t', 2, {
    key: Buffer.from('k'),
    value: Buffer.from('{}'),
    timestamp: '1700000000000',
    attributes: 0,
    offset: '41',
    headers: { h: Buffer.from('v') },
  });
  assert.deepEqual(
    { ...record, value: record.value.toString() },
    {
      topic: 't',
      partition: 2,
      offset: 41,
      timestamp: 1700000000000,
      key: 'k',
      value: '{}',
      headers: { h: 'v' },
    },
  );
});

test('revocation errors are told apart from other failures', () => {
  assert.ok(isRevocation({ type: 'REBALANCE_IN_PROGRESS' }));
  assert.ok(isRevocation({ type: 'UNKNOWN_MEMBER_ID' }));
  assert.ok(isRevocation({ cause: { type: 'ILLEGAL_GENERATION' } }));
  assert.ok(!isRevocation({ type: 'REQUEST_TIMED_OUT' }));
  assert.ok(!isRevocation(new Error('boom')));
  assert.ok(!isRevocation(null));
});

test('offset commits: one request at a time, later marks coalesced to the latest per partition', async () => {
  const sent: Offsets[] = [];
  let release!: () => void;
  const commit = async (offsets: Offsets) => {
    sent.push(offsets);
    if (sent.length === 1) await new Promise<void>((resolve) => (release = resolve));
  };
  const commits = new OffsetCommits('t');
  commits.mark(0, 1, commit);
  commits.mark(0, 2, commit);
  commits.mark(1, 5, commit);
  commits.mark(0, 3, commit);
  await new Promise((resolve) => setImmediate(resolve));
  release();
  await commits.drain();
  assert.deepEqual(
    sent.map((o) => o.topics[0]!.partitions),
    [
      [{ partition: 0, offset: '1' }],
      [
        { partition: 0, offset: '3' },
        { partition: 1, offset: '5' },
      ],
    ],
  );
});

test('offset commits: a failed commit is reported once by drain', async () => {
  const commits = new OffsetCommits('t');
  commits.mark(0, 1, async () => {
    throw Object.assign(new Error('generation moved on'), { type: 'ILLEGAL_GENERATION' });
  });
  await assert.rejects(commits.drain(), /generation moved on/);
  await commits.drain();
});

test('the kafkajs request-queue fix arms no timer while nothing waits', async () => {
  await import('../../lib/bus/kafka/kafkajs-fixes.ts');
  const RequestQueue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js');
  const queue = { pending: [] as unknown[], throttledUntil: -1, throttleCheckTimeoutId: null };
  const schedule = RequestQueue.prototype.scheduleCheckPendingRequests as (this: unknown) => void;
  const idle = { ...queue, checkPendingRequests() {} };
  schedule.call(idle);
  assert.equal(idle.throttleCheckTimeoutId, null);
  let checked = 0;
  const busy = {
    ...queue,
    pending: [{}],
    checkPendingRequests() {
      checked += 1;
    },
  };
  schedule.call(busy);
  assert.notEqual(busy.throttleCheckTimeoutId, null);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(checked, 1);
});

test('offset commits: rethrow reports the failure of an ended commit once, without waiting for the next', async () => {
  const commits = new OffsetCommits('t');
  commits.mark(0, 1, async () => {
    throw new Error('coordinator gone');
  });
  await new Promise((resolve) => setImmediate(resolve));
  let release = () => {};
  commits.mark(0, 2, () => new Promise<void>((resolve) => (release = resolve)));
  assert.throws(() => commits.rethrow(), /coordinator gone/);
  commits.rethrow();
  release();
  await commits.drain();
});

test('a producer whose first connect failed (the broker away) connects at the next send', async () => {
  let connects = 0;
  const fake = {
    connect: async () => {
      connects += 1;
      if (connects === 1) throw new Error('broker away');
    },
    sendBatch: async () => [{ topicName: 't', partition: 0, baseOffset: '7', errorCode: 0 }],
    disconnect: async () => {},
  };
  const producer = new RecordProducer({ producer: () => fake } as unknown as Kafka);
  const record = { key: 'k', value: Buffer.from('v'), headers: {} };
  await assert.rejects(producer.send('t', [record]), /broker away/);
  // Sent this time (the fake broker places nothing, so only that it was acknowledged counts).
  assert.equal((await producer.send('t', [record])).length, 1);
  assert.equal(connects, 2);
});
