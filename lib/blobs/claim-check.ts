// Claim check for request and reply payloads: bus messages stay well under Kafka's 1 MB
// default, so a value whose JSON is larger than INLINE_BYTES is stored in the blob store and
// travels as `{ $claim: key }`; the receiver swaps it back. Gateways and request consumers do
// this for every operation, so no service has to think about message sizes.
import { readFile } from 'node:fs/promises';
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

/** The value itself when small, else a claim on its stored JSON. */
export async function checkIn<T>(blobs: BlobStore, value: T): Promise<T | Claim> {
  const text = JSON.stringify(value);
  if (text === undefined || Buffer.byteLength(text) <= INLINE_BYTES) return value;
  return { $claim: await blobs.putBytes(text) };
}

/** The value a claim stands for (or the value itself when it is none). */
export async function checkOut(blobs: BlobStore, value: unknown): Promise<unknown> {
  if (!isClaim(value)) return value;
  return JSON.parse(await readFile(blobs.path(value.$claim, '$claim'), 'utf8')) as unknown;
}
