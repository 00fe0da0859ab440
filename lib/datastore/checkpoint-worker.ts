// The embedded datastore's checkpoints, on a thread of their own (checkpointer.ts starts it):
// copying a large import's pages from the write-ahead log into the database file, and syncing
// it, takes as long as a third of the import; here it blocks no request and no insert.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const port = parentPort!;
const db = new DatabaseSync(workerData as string);
db.exec('PRAGMA busy_timeout = 5000');
let scheduled = false;

function checkpoint(): void {
  scheduled = false;
  try {
    // PASSIVE, as SQLite's own automatic checkpoint: it waits for no reader and no writer.
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch (error) {
    port.postMessage({ failure: error instanceof Error ? error.message : String(error) });
  }
}

port.on('message', (message: 'checkpoint' | 'close') => {
  if (message === 'close') {
    if (scheduled) checkpoint(); // asked for before the close
    db.close();
    port.close();
  } else if (!scheduled) {
    // The requests that came while one ran make one more checkpoint, not one each.
    scheduled = true;
    setImmediate(checkpoint);
  }
});
