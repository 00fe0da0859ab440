// A growing blob: a stored download served while its consumer is still writing it, so that a
// client gets the first bytes of a large answer (an export bundle, a lab file) at once and not
// after the last one is made. The bus contract is unchanged (one request, one reply naming the
// finished blob): the gateway makes a random id and sends it in the request; the consumer's
// BlobStore.putStream writes the output to `growing/<id>` (its temporary file, renamed to the
// content key when complete); the gateway follows that file. The response starts with the first
// byte, or answers the reply's error as usual when that comes first; it ends when the reply says
// the blob is complete and every byte is sent, and is aborted (no terminating chunk, so no client
// takes a cut-off file for a whole one) when the reply is an error. On Kafka the blob store is
// the volume gateways and consumers share, so this works on both transports.
import { randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { BlobStore } from './blob-store.ts';
import type { Download } from './download.ts';

/** How often the end of a growing file is looked at again while nothing new is there. */
const POLL_MS = 20;
const CHUNK = 64 * 1024;

export function newGrowingId(): string {
  return randomUUID();
}

type Outcome = { ok: true; value: Download } | { ok: false; error: unknown };

/**
 * The bytes of the download `reply` will name, as they are written under `id`. Resolves once
 * the first byte is there (or the download is complete); rejects with the reply's error when it
 * fails before any byte. A later failure errors the stream.
 */
export async function followGrowing(
  blobs: BlobStore,
  id: string,
  reply: Promise<Download>,
  signal?: AbortSignal,
): Promise<Readable> {
  const chunks = follow(blobs, id, reply, signal);
  const first = await chunks.next();
  const stream = Readable.from(
    (async function* () {
      if (first.done) return;
      yield first.value;
      yield* chunks;
    })(),
    { objectMode: false },
  );
  // A response closed before the generator ran still closes the file.
  stream.once('close', () => void chunks.return(undefined).catch(() => {}));
  return stream;
}

async function* follow(
  blobs: BlobStore,
  id: string,
  reply: Promise<Download>,
  signal: AbortSignal | undefined,
): AsyncGenerator<Buffer, void> {
  let outcome: Outcome | undefined;
  const settled = reply.then(
    (value) => void (outcome = { ok: true, value }),
    (error: unknown) => void (outcome = { ok: false, error }),
  );
  const wait = () => Promise.race([settled, delay(POLL_MS, undefined, signal ? { signal } : {})]);
  const growing = blobs.growingPath(id);
  let handle: FileHandle | undefined;
  try {
    // The growing file; or, when the reply came first (the file is moved to its key by then), the blob.
    while (handle === undefined) {
      signal?.throwIfAborted();
      const known = outcome; // taken before looking, so that a missing file means "moved" only if it was done
      handle = await open(growing, 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (handle !== undefined) break;
      if (known?.ok === false) throw known.error;
      if (known?.ok) handle = await open(blobs.path(known.value.blob), 'r');
      else await wait();
    }
    let position = 0;
    for (;;) {
      signal?.throwIfAborted();
      const known = outcome; // taken before reading: when it says done, the file was complete
      const buffer = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
      if (bytesRead > 0) {
        position += bytesRead;
        yield buffer.subarray(0, bytesRead);
      } else if (known?.ok === false) {
        throw known.error;
      } else if (known?.ok) {
        const size = blobs.size(known.value.blob);
        if (position !== size) throw new Error(`growing blob ${id}: ${position} of ${size} bytes found`);
        return;
      } else {
        await wait();
      }
    }
  } finally {
    await handle?.close();
  }
}
