// Checkpoints of a SQLite file in WAL mode, off the thread that writes it. SQLite's automatic
// checkpoint runs in the committing connection, after the commit: after a 1M-row import that
// is most of a second more on the import's clock, and as long again that the thread's event
// loop stands still. Here the writing connection turns it off, and after a commit that leaves
// the log past LOG_BYTES asks a worker thread for a PASSIVE checkpoint, the kind SQLite's
// automatic one is. The thread starts on such a commit and ends when IDLE_MS pass without
// one: a thread costs tens of MB of RSS, and large commits come in bursts (an import).
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { log } from '../process/log.ts';

const ENTRY = new URL('./checkpoint-worker.ts', import.meta.url);
/**
 * SQLite's own threshold: 1000 pages (here 16 KiB each). The log file is cut back to it when it
 * restarts (embedded.ts, journal_size_limit): past it, the log holds more than that since.
 */
export const LOG_BYTES = 16 << 20;
const IDLE_MS = 2000;

export class Checkpointer {
  readonly #file: string;
  #worker: Worker | undefined;
  #idle: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(file: string) {
    this.#file = file;
  }

  /** Called after each commit: a checkpoint when the log has grown past LOG_BYTES. */
  committed(): void {
    if (this.#closed) return;
    let size = 0;
    try {
      size = statSync(`${this.#file}-wal`).size;
    } catch {
      return; // no log yet
    }
    if (size <= LOG_BYTES) return;
    this.#started().postMessage('checkpoint');
    clearTimeout(this.#idle);
    // Ends after its last checkpoint (a close waits for the one running).
    this.#idle = setTimeout(() => void this.#end(), IDLE_MS).unref();
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(ENTRY, { workerData: this.#file });
    worker.unref(); // an idle checkpointer keeps no process alive
    worker.on('message', ({ failure }: { failure: string }) => {
      log.warn({ err: failure }, 'datastore checkpoint failed');
    });
    worker.on('error', (error) => log.warn({ err: String(error) }, 'datastore checkpointer ended'));
    worker.on('exit', () => {
      if (this.#worker === worker) this.#worker = undefined;
    });
    this.#worker = worker;
    return worker;
  }

  /** Ends the thread once its checkpoint is done (the last connection's close checkpoints too). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#end();
  }

  async #end(): Promise<void> {
    clearTimeout(this.#idle);
    const worker = this.#worker;
    if (!worker) return;
    this.#worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref(); // kept until it has closed its connection
    worker.postMessage('close');
    await exited;
  }
}
