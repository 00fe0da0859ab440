// Claim check for request and reply payloads: bus messages stay well under Kafka's 1 MB
// default, so a value whose JSON is larger than INLINE_BYTES is stored in the blob store and
// travels as `{ $claim: key }`; the receiver swaps it back. Gateways and request consumers do
// this for every operation, so no service has to think about message sizes.
import { readFile } from 'node:fs/promises';
import { invalid } from '../process/errors.ts';
import { checkValueDepth, DEPTH_VARIABLE, maxDepth } from '../limits.ts';
import type { BlobStore } from './blob-store.ts';

export const INLINE_BYTES = 256 * 1024;

interface Claim {
  $claim: string;
}

function isClaim(value: unknown): value is Claim {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 1 &&
    typeof (value as Partial<Claim>).$claim === 'string'
  );
}

/**
 * The value itself when small, else a claim on its stored JSON. A value too deep for
 * JSON.stringify (which recurses) is a 422 naming `field` and LABLD_MAX_DEPTH, not a
 * RangeError: the gateways refuse such bodies first, this is the second line.
 */
export async function checkIn<T>(blobs: BlobStore, value: T, field = 'body'): Promise<T | Claim> {
  const text = stringify(value, field);
  if (text === undefined || Buffer.byteLength(text) <= INLINE_BYTES) return value;
  return { $claim: await blobs.putBytes(text) };
}

/** The file of the JSON a claim stands for; undefined when the value is no claim. */
export function claimedPath(blobs: BlobStore, value: unknown): string | undefined {
  return isClaim(value) ? blobs.path(value.$claim, '$claim') : undefined;
}

/** The value a claim stands for (or the value itself when it is none). */
export async function checkOut(blobs: BlobStore, value: unknown): Promise<unknown> {
  const path = claimedPath(blobs, value);
  return path === undefined ? value : (JSON.parse(await readFile(path, 'utf8')) as unknown);
}

function stringify(value: unknown, field: string): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    // Only stack overflows; a RangeError for a string past V8's length limit is about size.
    if (!(error instanceof RangeError && /call stack/i.test(error.message))) throw error;
    const limit = maxDepth();
    checkValueDepth(value, field, limit); // throws the limit's 422 when it is the depth
    throw invalid(
      `${field}: nested too deeply to be stored (${error.message}; ${DEPTH_VARIABLE} is ${limit})`,
      field,
    );
  }
}
