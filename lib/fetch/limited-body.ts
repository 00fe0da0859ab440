// The response body as the caller sees it: a stream that counts bytes and fails once the size
// limit is passed, so a 1 GB file can be streamed without buffering and a lying or missing
// Content-Length cannot get more than the limit through.
import { Transform, type Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { TooLargeError } from './errors.ts';

export interface BodyOptions {
  maxBytes: number;
  /** Turns a source failure (abort, reset, timeout) into the error the caller should see. */
  mapError: (error: unknown) => Error;
  /** Runs once when the body is finished, failed or dropped: releases timers and sockets. */
  onClose: () => void;
  /** The caller's reader fell behind (its buffer is full, the upstream is paused) … */
  onReaderBehind?: () => void;
  /** … and caught up again: the time between is the reader's, not the upstream's. */
  onReaderCaughtUp?: () => void;
}

export function limitedBody(source: Readable, options: BodyOptions): Readable {
  let seen = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > options.maxBytes) return done(options.mapError(new TooLargeError(options.maxBytes)));
      done(null, chunk);
      if (counted.readableLength >= counted.readableHighWaterMark) options.onReaderBehind?.();
    },
    read(size) {
      // Asked for more: the reader has room again, so waiting from here on is the upstream's.
      options.onReaderCaughtUp?.();
      Transform.prototype._read.call(this, size);
    },
  });
  // A body nobody listens to must not crash the process when it fails (say, timed out before
  // the caller started reading); readers still get the error through iteration or pipeline.
  counted.on('error', () => {});
  source.on('error', (error) => counted.destroy(options.mapError(error)));
  source.on('close', () => {
    if (!source.readableEnded) counted.destroy(options.mapError(new Error('body ended early')));
  });
  counted.on('close', () => {
    if (!source.destroyed) source.destroy();
    options.onClose();
  });
  source.pipe(counted);
  return counted;
}

/** Reads a whole (already limited) body into memory. */
export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Decodes bytes with the charset of a Content-Type, falling back to UTF-8. */
export function decode(bytes: Uint8Array, contentType: string | undefined): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes);
}
