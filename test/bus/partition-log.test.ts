// The embedded bus's partition log: what every group has committed leaves memory, so a
// process's memory does not grow with its traffic (issue 25, "under load"); a log on disk keeps
// its records in its file for a replay and holds at most a bounded window of them in memory.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { MEMORY_WINDOW_BYTES, PartitionLog } from '../../lib/bus/embedded/partition-log.ts';
import { tempDir } from '../support/temp.ts';

const record = (n: number) => ({ key: null, headers: {}, value: Buffer.from(`reply ${n}`) });

test('a log in memory holds only what a group has not committed', () => {
  const log = new PartitionLog('labld.replies.x', 0, null, { fsync: false, retentionMs: 3600_000 });
  for (let n = 0; n < 1000; n += 1) log.append(record(n));
  log.release('x', 990);
  assert.equal(log.held, 10);
  assert.deepEqual([log.startOffset, log.endOffset], [990, 1000]);
  assert.equal(log.read(989), undefined);
  assert.equal(log.read(995)?.value.toString(), 'reply 995');
  // Two groups: the one behind holds the rest.
  log.release('y', 992);
  log.release('x', 1000);
  assert.deepEqual([log.held, log.startOffset], [8, 992]);
  log.release('y', 1000);
  assert.deepEqual([log.held, log.startOffset, log.endOffset], [0, 1000, 1000]);
  // Offsets go on from where they were.
  assert.equal(log.append(record(1000)).offset, 1000);
});

test('a log on disk holds in memory only what a group has not committed, and reads the rest from its file', () => {
  const file = join(tempDir('labld-partition-'), '0.ndjson');
  const log = new PartitionLog('labld.chain.x', 0, file, { fsync: false, retentionMs: 3600_000 });
  try {
    for (let n = 0; n < 10; n += 1) log.append(record(n));
    log.release('x', 10);
    assert.deepEqual([log.held, log.heldBytes, log.startOffset, log.endOffset], [0, 0, 0, 10]);
    // A replay reads them back as they were appended.
    assert.equal(log.read(0)?.value.toString(), 'reply 0');
    assert.deepEqual(log.read(9)?.offset, 9);
    assert.equal(log.read(10), undefined);
    // One group behind holds back what it has not committed.
    log.release('y', 4);
    log.append(record(10));
    assert.deepEqual([log.held, log.read(10)?.value.toString()], [1, 'reply 10']);
    log.release('x', 11);
    log.release('y', 11);
    assert.equal(log.held, 0);
  } finally {
    log.close();
  }
});

test('the memory a log on disk holds is bounded, whatever its groups have committed', () => {
  const file = join(tempDir('labld-partition-'), '0.ndjson');
  const log = new PartitionLog('labld.chain.x', 0, file, { fsync: false, retentionMs: 3600_000 });
  const value = Buffer.alloc(1000, 'v');
  try {
    // Nobody commits (a dead-letter topic, a group far behind): 10 MB appended.
    for (let n = 0; n < 10_000; n += 1) log.append({ key: `k${n}`, headers: { n: String(n) }, value });
    assert.ok(log.heldBytes <= MEMORY_WINDOW_BYTES, `${log.heldBytes} bytes held`);
    assert.ok(log.held > 0 && log.held < 10_000, `${log.held} records held`);
    // Every record is still there, from memory or from the file.
    for (const n of [0, 1, 5000, 9999]) {
      const got = log.read(n)!;
      assert.deepEqual(
        [got.offset, got.key, got.headers, got.value.equals(value)],
        [n, `k${n}`, { n: String(n) }, true],
      );
    }
  } finally {
    log.close();
  }
});

test('a log on disk opened again holds nothing in memory and reads its records from the file', () => {
  const file = join(tempDir('labld-partition-'), '0.ndjson');
  const options = { fsync: false, retentionMs: 3600_000 };
  const first = new PartitionLog('labld.chain.x', 0, file, options);
  for (let n = 0; n < 5; n += 1) first.append(record(n));
  const binary = first.append({ key: null, headers: {}, value: Buffer.from([0xff, 0x00, 0xfe]) });
  first.close();
  const log = new PartitionLog('labld.chain.x', 0, file, options);
  try {
    assert.deepEqual([log.held, log.startOffset, log.endOffset], [0, 0, 6]);
    assert.equal(log.read(3)?.value.toString(), 'reply 3');
    assert.deepEqual([...log.read(5)!.value], [0xff, 0x00, 0xfe]);
    assert.equal(log.read(5)?.timestamp, binary.timestamp);
    assert.equal(log.offsetForTime(binary.timestamp + 1), 6);
    assert.equal(log.append(record(6)).offset, 6);
    assert.equal(log.read(6)?.value.toString(), 'reply 6');
  } finally {
    log.close();
  }
});

test('a record cut from a larger buffer does not hold that buffer', () => {
  const log = new PartitionLog('labld.replies.y', 0, null, { fsync: false, retentionMs: 3600_000 });
  const big = Buffer.alloc(64 * 1024, 'x');
  const stored = log.append({ key: null, headers: {}, value: big.subarray(100, 400) });
  assert.equal(stored.value.toString(), 'x'.repeat(300));
  assert.ok(stored.value.buffer !== big.buffer, 'the 64 KB buffer is kept by the record');
  assert.equal(stored.value.buffer.byteLength, 300);
  // Node's pool of small buffers is such a larger buffer too.
  const pooled = log.append({ key: null, headers: {}, value: Buffer.from('a small reply') });
  assert.equal(pooled.value.buffer.byteLength, 'a small reply'.length);
});
