// The import's parsing thread (import-thread.ts starts it): reads the CSV's bytes as the main
// thread sends them, by the descriptor's dialect, cells by their field's type, and sends the
// rows back as column batches. Domain code only; the messages are the two threads' own.
import { parentPort, workerData } from 'node:worker_threads';
import { descriptorRowBatches } from '../csvw/descriptor-rows.ts';
import { DomainError } from '../process/errors.ts';
import { isDeterministic } from '../process/transient.ts';
import { columnBatches } from './import.ts';
import { byteDelimiter, columnBatchesFromBytes } from './import-bytes.ts';
import type { ParseJob, ToParser, FromParser } from './import-thread.ts';

const port = parentPort!;
const job = workerData as ParseJob;

/** Messages of one kind as they come, each handed to the first waiting reader. */
class Inbox<T> {
  readonly #queue: T[] = [];
  #waiting: ((value: T) => void) | undefined;

  push(value: T): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) waiting(value);
    else this.#queue.push(value);
  }

  next(): Promise<T> {
    const queued = this.#queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => (this.#waiting = resolve));
  }
}

const chunks = new Inbox<ToParser & { type: 'chunk' | 'end' }>();
const credits = new Inbox<true>();
port.on('message', (message: ToParser) => {
  if (message.type === 'taken') credits.push(true);
  else chunks.push(message);
});

async function* body(): AsyncGenerator<Uint8Array | string> {
  for (;;) {
    const message = await chunks.next();
    if (message.type === 'end') return;
    port.postMessage({ type: 'read' } satisfies FromParser);
    yield message.chunk;
  }
}

try {
  // From the bytes where the dialect allows (no string per number cell), else from the text.
  const batches =
    byteDelimiter(job.dialect) === undefined
      ? columnBatches(
          descriptorRowBatches({ body: body() }, job.csvUrl, job.dialect, job.fields.length),
          job.fields,
          job.csvUrl,
          job.batchSize,
          job.styles,
        )
      : columnBatchesFromBytes(body(), job.csvUrl, job.dialect, job.fields, job.styles, job.batchSize);
  let unanswered = 0;
  for await (const batch of batches) {
    const buffers = batch.columns.flatMap((c) =>
      c instanceof Float64Array ? [c.buffer as ArrayBuffer] : [],
    );
    port.postMessage({ type: 'batch', batch } satisfies FromParser, buffers);
    // A few batches ahead of the inserts, not the whole file.
    if (++unanswered >= job.ahead) {
      await credits.next();
      unanswered -= 1;
    }
  }
  port.postMessage({ type: 'done' } satisfies FromParser);
} catch (error) {
  const failure =
    error instanceof DomainError
      ? { kind: error.kind, message: error.message, field: error.field }
      : {
          message: error instanceof Error ? error.message : String(error),
          deterministic: isDeterministic(error),
        };
  port.postMessage({ type: 'failed', failure } satisfies FromParser);
}
