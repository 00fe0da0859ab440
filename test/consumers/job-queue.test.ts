// The worker pool's queue (consumers/workers/job-queue.ts): requests before background work
// beyond its first job, which takes its turn; background work on all workers but one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backgroundRoom, JobQueue } from '../../consumers/workers/job-queue.ts';

const job = (name: string, background = false) => ({ name, background });

test('requests go before background work beyond its first job, which takes its turn', () => {
  const queue = new JobQueue<ReturnType<typeof job>>();
  for (const j of [job('step 1', true), job('read 1'), job('step 2', true), job('read 2')]) queue.push(j);
  // No background job runs: the oldest job, a step, in its turn (the chain is never starved).
  assert.equal(queue.take(0, 1)?.name, 'step 1');
  // One runs: the requests first, though step 2 came before read 2.
  assert.equal(queue.take(1, 1)?.name, 'read 1');
  assert.equal(queue.take(1, 1)?.name, 'read 2');
  // One runs and the room is one: nothing for this worker.
  assert.equal(queue.take(1, 1), undefined);
  // The room is two and no request waits: the next step.
  queue.push(job('step 3', true));
  assert.equal(queue.take(1, 2)?.name, 'step 2');
  queue.unshift(job('read again'));
  assert.equal(queue.take(2, 2)?.name, 'read again');
  assert.equal(queue.length, 1);
  assert.deepEqual(
    queue.drain().map((j) => j.name),
    ['step 3'],
  );
});

test('background work may hold every worker but one, and the only one of a pool of one', () => {
  assert.deepEqual([1, 2, 4].map(backgroundRoom), [1, 1, 3]);
});
