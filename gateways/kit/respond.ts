// Turns a handler's Result into the Koa response.
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { BodySource, Result } from './types.ts';

export async function respond(ctx: Context, result: Result): Promise<void> {
  if (result.headers) ctx.set(result.headers);
  if ('json' in result) {
    ctx.status = result.status ?? 200;
    ctx.type = 'application/json';
    // Serialised here: Koa would send a bare string as text/plain and `undefined` as 204.
    ctx.body = JSON.stringify(result.json) ?? 'null';
  } else if ('body' in result) {
    ctx.status = result.status ?? 200;
    // An ASCII `filename` for old clients, and `filename*` (RFC 5987, UTF-8) when the name is not ASCII.
    if (result.filename !== undefined) {
      ctx.attachment(result.filename, { fallback: result.filename.replace(/[^\x20-\x7e]/g, '_') });
    }
    ctx.type = result.contentType;
    ctx.body = await toBody(ctx, result.body);
  } else if ('redirect' in result) {
    ctx.status = result.status ?? 303;
    ctx.redirect(result.redirect);
  } else {
    // Null first: Koa turns a later null body into 204, but keeps a status set after it.
    ctx.body = null;
    ctx.status = result.status;
  }
}

async function toBody(ctx: Context, source: BodySource): Promise<string | Buffer | Readable> {
  if (typeof source === 'string' || Buffer.isBuffer(source)) return source;
  if (source instanceof Uint8Array) return Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  if ('path' in source && !('pipe' in source)) {
    // Opened now, so that a missing file is an error of this request and not a broken stream later.
    const handle = await open(source.path, 'r');
    try {
      ctx.length = (await handle.stat()).size;
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle.createReadStream();
  }
  return source as Readable;
}
