// Work an operation leaves for after its answer (OperationContext.later; the chain's import
// makes the preview's indexes so, while describe runs): the answer does not wait for it, and the
// worker finishes it before it takes its next job.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { WorkerPool } from '../../consumers/workers/pool.ts';
import { tempDir } from '../support/temp.ts';

const MODULE = new URL('./later-operations.ts', import.meta.url).href;

test('an answer comes before the work left for later, which ends before the next job', async () => {
  const dataDir = tempDir('labld-pool-later-');
  const pool = new WorkerPool({
    sources: [{ group: 'later', module: MODULE }],
    dataDir,
    size: 1,
    memoryMb: 64,
  });
  await pool.start();
  try {
    const go = join(dataDir, 'go');
    const mark = join(dataDir, 'mark');
    // Its later work waits for `go`: an answer that waited for it would never come.
    const answer = await pool.run('later', 'answerFirst', { go, mark }, { deadline: Date.now() + 20_000 });
    assert.equal(answer, 'answered');
    assert.equal(existsSync(mark), false);
    writeFileSync(go, '');
    // One worker: the next job runs after the later work wrote its mark.
    assert.equal(await pool.run('later', 'exists', { path: mark }), true);
    // A later task that fails leaves the answer and the worker as they were.
    assert.equal(await pool.run('later', 'failLater', {}), 'answered');
    assert.equal(await pool.run('later', 'exists', { path: go }), true);
  } finally {
    await pool.close();
  }
});
