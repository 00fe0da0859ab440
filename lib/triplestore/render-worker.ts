// The render worker (render.ts): writes a query's result in the media type asked, piece by
// piece, off the main thread; and checks a result in to the blob store (its JSON text and hash
// cost a 100,000-row result ~0.3 s of a thread). A large result arrives as the path of its
// claim (the JSON the triple store's consumer stored), so that even reading it back happens
// here. At most AHEAD pieces are in flight: the main thread gives a credit back for each one
// its client took.
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { BlobStore } from '../blobs/blob-store.ts';
import { checkIn } from '../blobs/claim-check.ts';
import { DomainError } from '../process/errors.ts';
import type { QueryResult } from './contract.ts';
import { resultPieces, resultType } from './results.ts';
import { count } from '../process/counters.ts';

export type ResultSource = { value: QueryResult } | { path: string };

export type ToRenderer =
  | { type: 'render'; source: ResultSource; accept: string | undefined }
  | { type: 'more' }
  /** The claim check of a result (JSON text, hash, file) for the blob store in `blobs`. */
  | { type: 'check-in'; value: QueryResult; blobs: string };

export type FromRenderer =
  | { type: 'checked-in'; value: unknown }
  /** The media type chosen for the Accept header, before any piece. */
  | { type: 'chosen'; mediaType: string }
  | { type: 'piece'; piece: string }
  | { type: 'done' }
  | { type: 'failed'; failure: { kind?: DomainError['kind']; message: string; field?: string | undefined } };

const AHEAD = 4;
const PIECE = 1 << 20;

const port = parentPort!;
let credits = 0;
let wake: (() => void) | undefined;

async function render(source: ResultSource, accept: string | undefined): Promise<void> {
  if ('path' in source) count('result.parse');
  const result =
    'value' in source ? source.value : (JSON.parse(await readFile(source.path, 'utf8')) as QueryResult);
  const mediaType = resultType(result, accept);
  port.postMessage({ type: 'chosen', mediaType } satisfies FromRenderer);
  credits = AHEAD;
  for await (const written of resultPieces(result, mediaType)) {
    // JSON-LD and RDF/XML come as one text: handed on in pieces all the same.
    for (let i = 0; i < written.length; i += PIECE) {
      while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
      credits -= 1;
      port.postMessage({ type: 'piece', piece: written.slice(i, i + PIECE) } satisfies FromRenderer);
    }
  }
}

port.on('message', (message: ToRenderer) => {
  if (message.type === 'more') {
    credits += 1;
    wake?.();
    return;
  }
  const job =
    message.type === 'check-in'
      ? checkIn(new BlobStore(message.blobs), message.value).then(
          (value) => ({ type: 'checked-in', value }) as const,
        )
      : render(message.source, message.accept).then(() => ({ type: 'done' }) as const);
  job.then(
    (reply) => port.postMessage(reply satisfies FromRenderer),
    (error: unknown) => {
      const failure =
        error instanceof DomainError
          ? { kind: error.kind, message: error.message, field: error.field }
          : { message: String((error as Error)?.message ?? error) };
      port.postMessage({ type: 'failed', failure } satisfies FromRenderer);
    },
  );
});
