// A query's result on its way back over the bus (claim check, as lib/blobs/claim-check.ts does
// for every reply): a small one inline; a large one's text stored in the blob store as the bytes
// the store wrote — not wrapped in JSON — so that the gateway sends that file to the client as
// it is (issue 27: a result is written once). Stored as a stream of pieces, hashed as they go:
// a 20 MB text never holds the thread that checks it in.
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { BlobStore } from '../blobs/blob-store.ts';
import { INLINE_BYTES } from '../blobs/claim-check.ts';
import type { GraphResult, QueryResult, TableResult } from './contract.ts';

/** A result whose text is in the blob store under `blob`. */
export type StoredResult = (Omit<TableResult, 'text'> | Omit<GraphResult, 'text'>) & { blob: string };

/** What the triple store's consumer replies with: the result, or its stored form. */
export type ResultReply = QueryResult | StoredResult;

/** Characters of a text inline on the bus: as escaped JSON at most 6 bytes each, well under Kafka's 1 MB. */
const INLINE_CHARS = INLINE_BYTES / 4;
const PIECE = 1 << 18;

export async function checkInResult(blobs: BlobStore, result: QueryResult): Promise<ResultReply> {
  if (result.type === 'ask' || result.text.length <= INLINE_CHARS) return result;
  const { text, ...rest } = result;
  const pieces = function* () {
    for (let i = 0; i < text.length; i += PIECE) yield Buffer.from(text.slice(i, i + PIECE));
  };
  return { ...rest, blob: await blobs.putStream(Readable.from(pieces())) };
}

export const isStored = (reply: ResultReply): reply is StoredResult => 'blob' in reply;

/** The result with its text, read back from the blob store when it was stored (for code that reads rows). */
export async function checkOutResult(blobs: BlobStore, reply: ResultReply): Promise<QueryResult> {
  if (!isStored(reply)) return reply;
  const { blob, ...rest } = reply;
  return { ...rest, text: await readFile(blobs.path(blob, 'result'), 'utf8') } as QueryResult;
}
