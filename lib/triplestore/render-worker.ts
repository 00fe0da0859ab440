// The render worker (render.ts): writes a query's result in the media type asked, piece by
// piece, off the main thread. A large result arrives as the file of its stored text
// (result-claim.ts), so that even reading it back happens here. At most AHEAD pieces are in
// flight: the main thread gives a credit back for each one its client took.
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { DomainError } from '../process/errors.ts';
import type { QueryResult } from './contract.ts';
import type { StoredResult } from './result-claim.ts';
import { resultPieces } from './results.ts';

/** The result itself, or its stored form with the path of its text. */
export type ResultSource = { value: QueryResult } | { stored: StoredResult; path: string };

export type ToRenderer = { type: 'render'; source: ResultSource; mediaType: string } | { type: 'more' };

export type FromRenderer =
  | { type: 'piece'; piece: string }
  | { type: 'done' }
  | { type: 'failed'; failure: { kind?: DomainError['kind']; message: string; field?: string | undefined } };

const AHEAD = 4;
const PIECE = 1 << 20;

const port = parentPort!;
let credits = 0;
let wake: (() => void) | undefined;

async function render(source: ResultSource, mediaType: string): Promise<void> {
  const result =
    'value' in source
      ? source.value
      : ({ ...source.stored, text: await readFile(source.path, 'utf8') } as QueryResult);
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
  render(message.source, message.mediaType).then(
    () => port.postMessage({ type: 'done' } satisfies FromRenderer),
    (error: unknown) => {
      const failure =
        error instanceof DomainError
          ? { kind: error.kind, message: error.message, field: error.field }
          : { message: String((error as Error)?.message ?? error) };
      port.postMessage({ type: 'failed', failure } satisfies FromRenderer);
    },
  );
});
