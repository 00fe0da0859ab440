// A query's result written as a stream, off the main thread (issue 25: JSON-LD of 99,000
// triples held the event loop 8 s, a 100,000-row SELECT 1–2 s), where the store could not write
// it in the type asked (results.ts resultPieces says which; what a store wrote goes out
// untouched). RENDERERS warm worker threads (render-worker.ts; loading lib/rdf takes a new
// thread ~0.4 s) take one result each; the pieces they write go out as the client reads them.
// A client that goes away ends its renderer, and a fresh one takes its place when next needed.
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { DomainError } from '../process/errors.ts';
import { youngGenerationMb } from '../process/heap.ts';
import type { FromRenderer, ResultSource, ToRenderer } from './render-worker.ts';
import { count } from '../process/counters.ts';

export type { ResultSource } from './render-worker.ts';

const ENTRY = new URL('./render-worker.ts', import.meta.url);
/** Results written at once; more wait for a renderer. */
const RENDERERS = 2;

const idle: Worker[] = [];
let running = 0;
const waiting: (() => void)[] = [];

function spawn(): Worker {
  const young = youngGenerationMb();
  return new Worker(
    ENTRY,
    young === undefined ? {} : { resourceLimits: { maxYoungGenerationSizeMb: young } },
  );
}

async function acquire(): Promise<Worker> {
  while (running >= RENDERERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  const worker = idle.pop() ?? spawn();
  worker.ref();
  return worker;
}

/** `worker` back to the idle ones, or (after a failure or a client gone) ended. */
function release(worker: Worker, reusable: boolean): void {
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  if (reusable) {
    // Idle, it does not keep the process alive.
    worker.unref();
    idle.push(worker);
  } else void worker.terminate();
  running -= 1;
  waiting.shift()?.();
}

/** The worker's answer to one message that is not a piece of a stream. */
function failureOf(message: Extract<FromRenderer, { type: 'failed' }>): Error {
  const { kind, message: text, field } = message.failure;
  return kind ? new DomainError(kind, text, field) : new Error(text);
}

export interface RenderedStream {
  /** With its charset. */
  contentType: string;
  body: Readable;
}

/**
 * The text of the result in media type `type` (results.ts `chosenType`) as a stream. Resolves
 * once the first piece is written, so that a result that cannot be written at all (too large for
 * RDF/XML, say) is an error the caller can still answer with a status; a failure later ends the
 * stream with that error, never with a text that looks complete.
 */
export async function renderStream(source: ResultSource, type: string): Promise<RenderedStream> {
  const worker = await acquire();
  let done = false;
  const stream = new Readable({
    read() {
      if (!done) worker.postMessage({ type: 'more' } satisfies ToRenderer);
    },
    destroy(error, callback) {
      if (!done) {
        done = true;
        release(worker, false);
      }
      callback(error);
    },
  });
  let first: ((error?: Error) => void) | undefined;
  const started = new Promise<void>((resolve, reject) => {
    first = (error) => (error ? reject(error) : resolve());
  });
  const fail = (error: Error) => {
    if (done) return;
    done = true;
    release(worker, false);
    if (first) {
      // Not handed out yet: the caller gets the error, the stream (no listener) ends quietly.
      first(error);
      first = undefined;
      stream.destroy();
    } else stream.destroy(error);
  };
  worker.on('message', (message: FromRenderer) => {
    if (done) return;
    if (message.type === 'piece') stream.push(message.piece);
    else if (message.type === 'done') {
      done = true;
      release(worker, true);
      stream.push(null);
    } else if (message.type === 'failed') return fail(failureOf(message));
    else return;
    first?.();
    first = undefined;
  });
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('the result renderer ended early')));
  worker.postMessage({ type: 'render', source, mediaType: type } satisfies ToRenderer);
  count('handoff.render');
  await started;
  return { contentType: `${type}; charset=utf-8`, body: stream };
}
