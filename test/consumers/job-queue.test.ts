// The worker pool's queue (consumers/workers/job-queue.ts): requests first, background work
// after them and on all workers but one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backgroundRoom, JobQueue } from '../../consumers/workers/job-queue.ts';

const job = (name: string, background = false) => ({ name, background });

test('the oldest request goes first; background jobs only while they have room', () => {
  const queue = new JobQueue<ReturnType<typeof job>>();
  for (const j of [job('step 1', true), job('read 1'), job('step 2', true), job('read 2')]) queue.push(j);
  assert.equal(queue.take(1, 1)?.name, 'read 1');
  assert.equal(queue.take(1, 1)?.name, 'read 2');
  // One background job runs and the room is one: nothing for this worker.
  assert.equal(queue.take(1, 1), undefined);
  assert.equal(queue.take(0, 1)?.name, 'step 1');
  queue.unshift(job('read again'));
  assert.equal(queue.take(1, 1)?.name, 'read again');
  assert.equal(queue.length, 1);
  assert.deepEqual(
    queue.drain().map((j) => j.name),
    ['step 2'],
  );
});

test('background work may hold every worker but one, and the only one of a pool of one', () => {
  assert.deepEqual([1, 2, 4].map(backgroundRoom), [1, 1, 3]);
});
