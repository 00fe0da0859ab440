// The embedded datastore's checkpoints (checkpointer.ts): asked for after a commit that leaves
// the write-ahead log past LOG_BYTES, which the log file's size can only say if the file is cut
// back to LOG_BYTES when SQLite restarts it (journal_size_limit); else, once it had grown past,
// every commit after would ask for one.
import assert from 'node:assert/strict';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { openEmbeddedDatastore } from '../../lib/datastore/embedded.ts';
import { LOG_BYTES } from '../../lib/datastore/checkpointer.ts';
import { tempDir } from '../support/temp.ts';

test('after a large import is checkpointed, a small commit leaves the log no longer than LOG_BYTES', async () => {
  const dir = tempDir('labld-checkpoint-');
  const file = join(dir, 'datastore.sqlite');
  const store = await openEmbeddedDatastore(file);
  const wal = () => statSync(`${file}-wal`).size;
  try {
    await store.create('big', [{ id: 'text', type: 'text' }]);
    // About 40 MB of rows in one commit: the log grows past LOG_BYTES, and a checkpoint is asked for.
    const cell = 'x'.repeat(4000);
    const batches = function* () {
      for (let b = 0; b < 10; b++) yield Array.from({ length: 1000 }, () => ({ text: cell }));
    };
    await store.insert('big', batches());
    assert.ok(wal() > LOG_BYTES, `the import's log is ${wal()} bytes`);
    // The checkpoint runs on its own thread; wait until it has copied the log.
    for (let i = 0; i < 200; i++) {
      await delay(25);
      await store.create(`small-${i}`, [{ id: 'n', type: 'numeric' }]);
      if (wal() <= LOG_BYTES) break;
    }
    await store.create('after', [{ id: 'n', type: 'numeric' }]);
    await store.insert('after', [[{ n: 1 }]]);
    assert.ok(wal() <= LOG_BYTES, `after the restart the log is ${wal()} bytes, past ${LOG_BYTES}`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
