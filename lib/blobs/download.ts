// A file download by reference: a consumer stores the bytes and replies with this; the gateway
// streams the blob. Keeps bus messages small whatever the size of the output.
import type { BlobStore } from './blob-store.ts';

export interface Download {
  blob: string;
  contentType: string;
  filename: string;
}

export async function storeDownload(
  blobs: BlobStore,
  body: string | Uint8Array,
  contentType: string,
  filename: string,
): Promise<Download> {
  return { blob: await blobs.putBytes(body), contentType, filename };
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
