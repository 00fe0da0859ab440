// The embedded bus's partition log in memory (a process's reply topic): what every group has
// committed is dropped, so a process's memory does not grow with its traffic (issue 25, "under
// load"); a log on disk keeps its records for replay.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { PartitionLog } from '../../lib/bus/embedded/partition-log.ts';
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

test('a log on disk keeps its records for replay', () => {
  const file = join(tempDir('labld-partition-'), '0.ndjson');
  const log = new PartitionLog('labld.chain.x', 0, file, { fsync: false, retentionMs: 3600_000 });
  try {
    for (let n = 0; n < 10; n += 1) log.append(record(n));
    log.release('x', 10);
    assert.deepEqual([log.held, log.startOffset], [10, 0]);
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
