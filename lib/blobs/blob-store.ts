// Content-addressed blob store: files and derived resources travel through the bus by key
// (claim check), never inline. A key is the SHA-256 of the bytes, so storing the same bytes
// twice is one file, and replaying a step never duplicates a resource. Blobs are written to a
// temporary file while hashing (streaming, any size) and renamed into place.
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  statSync,
  rmSync,
} from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { invalid, notFound } from '../process/errors.ts';

const KEY = /^[0-9a-f]{64}$/;
/** A growing blob's id (growing.ts): a random UUID the gateway makes. */
export const GROWING_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class BlobStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    mkdirSync(join(dir, 'growing'), { recursive: true });
  }

  /**
   * Store a stream; resolves to its key. With `growing` (an id from the gateway) the stream is
   * written where that gateway follows it while it grows (growing.ts), instead of a hidden
   * temporary file.
   */
  async putStream(source: Readable | AsyncIterable<Uint8Array>, growing?: string): Promise<string> {
    const temp = growing === undefined ? join(this.dir, 'tmp', randomUUID()) : this.growingPath(growing);
    const hash = createHash('sha256');
    // A large buffer lets the producer make the next piece while this one is written.
    const sink = createWriteStream(temp, { highWaterMark: 1 << 20, flags: 'wx' });
    try {
      await pipeline(
        source,
        async function* (chunks: AsyncIterable<Uint8Array>) {
          for await (const chunk of chunks) {
            hash.update(chunk);
            yield chunk;
          }
        },
        sink,
      );
      return this.#settle(temp, hash.digest('hex'));
    } catch (error) {
      // The file is opened asynchronously: a source that fails at once can reject the pipeline
      // before the open completes, and the file would appear after it was removed.
      if (!sink.closed) await once(sink, 'close').catch(() => {});
      rmSync(temp, { force: true });
      throw error;
    }
  }

  /**
   * Store a file that is already on disk (an upload): hashed, then moved in place. `sha256`: its
   * hex SHA-256 taken as it was written (the upload kit's), so the file is not read again.
   */
  async putFile(path: string, sha256?: string): Promise<string> {
    let key = sha256;
    if (key === undefined) {
      const hash = createHash('sha256');
      await pipeline(createReadStream(path), async (chunks: AsyncIterable<Uint8Array>) => {
        for await (const chunk of chunks) hash.update(chunk);
      });
      key = hash.digest('hex');
    } else if (!KEY.test(key)) throw new Error(`putFile: ${JSON.stringify(key)} is not a hex SHA-256`);
    const temp = join(this.dir, 'tmp', randomUUID());
    await rename(path, temp);
    return this.#settle(temp, key);
  }

  async putBytes(bytes: string | Uint8Array): Promise<string> {
    const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    const temp = join(this.dir, 'tmp', randomUUID());
    await writeFile(temp, data);
    return this.#settle(temp, createHash('sha256').update(data).digest('hex'));
  }

  /** Where the output named `id` grows until it is complete and moved to its key. */
  growingPath(id: string): string {
    if (!GROWING_ID.test(id))
      throw invalid(`growing: ${JSON.stringify(id.slice(0, 80))} is not a growing blob id`, 'growing');
    return join(this.dir, 'growing', id);
  }

  has(key: string): boolean {
    return KEY.test(key) && existsSync(this.#file(key));
  }

  /** Path of a stored blob; a key that is malformed or unknown is a 404 naming `field`. */
  path(key: string, field = 'blob'): string {
    if (!this.has(key)) throw notFound(`no stored file ${JSON.stringify(key)}`, field);
    return this.#file(key);
  }

  open(key: string, field?: string): Readable {
    return createReadStream(this.path(key, field));
  }

  size(key: string): number {
    return statSync(this.path(key)).size;
  }

  #settle(temp: string, key: string): string {
    const file = this.#file(key);
    mkdirSync(join(this.dir, key.slice(0, 2)), { recursive: true });
    if (existsSync(file)) rmSync(temp, { force: true });
    else renameSync(temp, file);
    return key;
  }

  #file(key: string): string {
    return join(this.dir, key.slice(0, 2), key);
  }
}

/** The blob store of a data directory. */
export function blobStoreIn(dataDir: string): BlobStore {
  return new BlobStore(join(dataDir, 'blobs'));
}
