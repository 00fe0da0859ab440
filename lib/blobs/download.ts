// A file download by reference: a consumer stores the bytes and replies with this; the gateway
// streams the blob. Keeps bus messages small whatever the size of the output. Every output is
// held to LABLD_MAX_OUTPUT_BYTES: a larger one is a 413 and nothing is stored (a stream is
// counted as it goes to the store, whose temporary file is removed on any error).
import { byteSetting } from '../process/config.ts';
import type { DomainError } from '../process/errors.ts';
import { tooLarge } from '../process/errors.ts';
import type { BlobStore } from './blob-store.ts';

export interface Download {
  blob: string;
  contentType: string;
  filename: string;
}

/** LABLD_MAX_OUTPUT_BYTES, read when used (so a test or an operator's change applies at once). */
export function maxOutputBytes(env: NodeJS.ProcessEnv = process.env): number {
  return byteSetting('LABLD_MAX_OUTPUT_BYTES', env);
}

export function outputTooLarge(limit: number): DomainError {
  return tooLarge(
    `output: the answer is larger than the limit of ${limit} bytes (LABLD_MAX_OUTPUT_BYTES); nothing was stored`,
  );
}

export async function storeDownload(
  blobs: BlobStore,
  body: string | Uint8Array,
  contentType: string,
  filename: string,
  limit = maxOutputBytes(),
): Promise<Download> {
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (size > limit) throw outputTooLarge(limit);
  return { blob: await blobs.putBytes(body), contentType, filename };
}

export interface StreamOptions {
  /** The client has gone: stop. */
  signal?: AbortSignal | undefined;
  /** A gateway serves the output while it is written under this id (growing.ts). */
  growing?: string | undefined;
  /** Bytes allowed; LABLD_MAX_OUTPUT_BYTES unless the caller knows a bound of its own. */
  limit?: number;
}

/**
 * Stores an output as it is made (text or bytes), never holding it whole. An error from the
 * source, the limit, or the signal stops it and stores nothing.
 */
export async function storeDownloadStream(
  blobs: BlobStore,
  chunks: AsyncIterable<string | Uint8Array>,
  contentType: string,
  filename: string,
  { signal, growing, limit = maxOutputBytes() }: StreamOptions = {},
): Promise<Download> {
  let size = 0;
  const counted = async function* (): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      signal?.throwIfAborted();
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.byteLength;
      if (size > limit) throw outputTooLarge(limit);
      yield bytes;
    }
  };
  return { blob: await blobs.putStream(counted(), growing), contentType, filename };
}

export function isDownload(value: unknown): value is Download {
  const v = value as Partial<Download> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.blob === 'string' &&
    typeof v.contentType === 'string' &&
    typeof v.filename === 'string'
  );
}
