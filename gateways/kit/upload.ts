// Multipart uploads streamed to disk (formidable), never held in memory. The kit picks the
// location, a fresh directory per request under `<LABLD_DATA>/uploads/`; the client's file name
// is metadata only. The directory is removed when the response is done, unless the handler
// took ownership with `file.keep()` (or moved the file away).
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import formidable, { errors as formidableErrors, type Part } from 'formidable';
import type { Context } from 'koa';
import { boundedFileName } from '../../lib/blobs/served.ts';
import { malformed, tooLarge, unsupported, invalid } from '../../lib/process/errors.ts';
import { assertIdentityEncoding, hasBody, idleTimer, bodyTooLarge, formatBytes } from './body.ts';
import type { KitState } from './observe.ts';
import type { UploadedFile } from './types.ts';

export interface UploadLimits {
  /** Largest file, bytes. */
  file: number;
  /** All other form fields together, bytes. */
  fields: number;
  /** Give up after this many ms without a byte of the body (0: never). */
  idleMs?: number;
}

/** Headers of one part: a real one has two or three (Content-Disposition, Content-Type). */
export const MAX_PART_HEADERS = 32;
/** Bytes of one part's header names and values together. */
export const MAX_PART_HEADER_BYTES = 16 * 1024;
/** Form fields besides the file. */
const MAX_FIELDS = 200;
/**
 * The framing a form within the limits can have besides its file and field values: per part a
 * boundary line (at most 70 characters, RFC 2046, with `--` and CRLF) and its headers with
 * their separators and the blank line.
 */
const MAX_FRAMING_BYTES = (MAX_FIELDS + 1) * (80 + MAX_PART_HEADER_BYTES + MAX_PART_HEADERS * 4 + 2) + 80;

export interface ReceivedUpload {
  /** The other form fields: one string per name, an array when a name repeats. */
  fields: Record<string, string | string[]>;
  file: UploadedFile;
}

/** The client's name reduced to its last path segment without control characters, bounded (lib/blobs/served.ts). */
export function displayName(name: string | null | undefined): string {
  const last = (name ?? '').split(/[/\\]/).pop() ?? '';
  const clean = last.replace(/\p{Cc}/gu, '').trim();
  return clean === '' || clean === '.' || clean === '..' ? 'upload' : boundedFileName(clean);
}

/** Stored as `upload` plus a plain extension, so that tools that look at extensions still can. */
function storedName(original: string): string {
  const ext = /\.([A-Za-z0-9]{1,10})$/.exec(original)?.[1];
  return ext ? `upload.${ext.toLowerCase()}` : 'upload';
}

export async function receiveUpload(
  ctx: Context,
  fileField: string,
  uploadRoot: string,
  limits: UploadLimits,
): Promise<ReceivedUpload> {
  const missing = invalid(
    `body.${fileField}: is required: the multipart form has no "${fileField}" part`,
    `body.${fileField}`,
  );
  if (!hasBody(ctx.req)) throw missing;
  if (!ctx.is('multipart/form-data')) {
    throw unsupported(`body: expected multipart/form-data, got ${ctx.request.type || 'nothing'}`, 'body');
  }
  assertIdentityEncoding(ctx.req);
  // A body that declares more than any form within the limits can be is refused before a byte
  // of it is read (the connection is closed, errors.ts), not after the file's limit was read.
  const declared = Number(ctx.req.headers['content-length']);
  if (declared > limits.file + limits.fields + MAX_FRAMING_BYTES) {
    throw tooLarge(
      `body: its Content-Length (${declared} bytes) is more than a form within the limits can be: ` +
        `a file of ${formatBytes(limits.file)}, form fields of ${formatBytes(limits.fields)} and their framing`,
      'body',
    );
  }

  const dir = path.join(uploadRoot, randomUUID());
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let kept = false;
  // 'close' comes after the last byte of the response (or an aborted connection), so a handler
  // may still answer with the uploaded file itself. A kept file usually moved away (into the
  // blob store): its directory goes too once empty.
  ctx.res.once('close', () => {
    const removed = kept ? rmdir(dir) : rm(dir, { recursive: true, force: true });
    removed.catch((error: NodeJS.ErrnoException) => {
      if (kept && (error.code === 'ENOTEMPTY' || error.code === 'EEXIST')) return; // the file stayed
      (ctx.state as KitState).log.warn({ err: error, dir }, 'could not remove upload directory');
    });
  });

  const form = formidable({
    uploadDir: dir,
    maxFiles: 1,
    maxFileSize: limits.file,
    maxTotalFileSize: limits.file,
    maxFieldsSize: limits.fields,
    maxFields: MAX_FIELDS,
    allowEmptyFiles: true,
    minFileSize: 0,
    filename: (_name, _ext, part) => storedName(displayName(part.originalFilename)),
    // Hashed as it is written: the blob store keys the file by it without reading it again.
    hashAlgorithm: 'sha256',
  });
  form.onPart = (part: Part) => {
    if (part.name === fileField) {
      // Python's requests sends file parts without a Content-Type; formidable would take them for text fields.
      part.mimetype ||= 'application/octet-stream';
      return form._handlePart(part);
    }
    if (part.originalFilename) return; // an undeclared file: its bytes are dropped
    part.mimetype = null; // a text field, whatever type the client declared
    return form._handlePart(part);
  };

  let fields: formidable.Fields;
  let files: formidable.Files;
  // formidable's own way to fail a parse (stops writing, closes the open file); not in its types.
  const fail = (error: Error) => (form as unknown as { _error(error: Error): void })._error(error);
  const idle = idleTimer(ctx.req, limits.idleMs ?? 0, fail);
  form.on('progress', idle.touch);
  let watching = false; // the parser exists once the first chunk arrives
  form.on('progress', () => {
    watching ||= limitPartHeaders(form, fail);
  });
  try {
    [fields, files] = await form.parse(ctx.req);
  } catch (error) {
    throw uploadError(error, fileField, limits);
  } finally {
    idle.stop();
  }
  const stored = files[fileField]?.[0];
  if (!stored) throw missing;

  const file: UploadedFile = {
    path: stored.filepath,
    filename: displayName(stored.originalFilename),
    size: stored.size,
    mimetype: stored.mimetype ?? 'application/octet-stream',
    sha256: stored.hash as string,
    keep() {
      kept = true;
      return stored.filepath;
    },
  };
  const flat = Object.entries(fields).map(([name, values = []]) => [
    name,
    values.length === 1 ? values[0] : values,
  ]);
  return { fields: Object.fromEntries(flat) as Record<string, string | string[]>, file };
}

/**
 * formidable keeps every header of a part in memory, unbounded: count them (and their bytes)
 * on its multipart parser's events and refuse a part past the limits.
 */
function limitPartHeaders(form: object, fail: (error: Error) => void): boolean {
  const parser = (form as unknown as { _parser?: NodeJS.EventEmitter | null })._parser;
  if (!parser) return false;
  let headers = 0;
  let bytes = 0;
  parser.on('data', (event: { name: string; start?: number; end?: number }) => {
    if (event.name === 'partBegin') {
      headers = 0;
      bytes = 0;
    } else if (event.name === 'headerField' || event.name === 'headerValue') {
      bytes += (event.end ?? 0) - (event.start ?? 0);
      if (bytes > MAX_PART_HEADER_BYTES) {
        fail(
          tooLarge(
            `body: a multipart part's headers are larger than the limit of ${MAX_PART_HEADER_BYTES / 1024} KB`,
            'body',
          ),
        );
      }
    } else if (event.name === 'headerEnd' && ++headers > MAX_PART_HEADERS) {
      fail(
        tooLarge(
          `body: a multipart part has more than ${MAX_PART_HEADERS} headers (the limit per part)`,
          'body',
        ),
      );
    }
  });
  return true;
}

/**
 * Removes upload directories left empty (by a process that stopped before it could): at
 * start-up. Only empty ones older than a minute, since other gateway processes may share the
 * data directory and be receiving into a fresh one.
 */
export async function sweepUploads(uploadRoot: string, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(uploadRoot);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const dir = path.join(uploadRoot, name);
    try {
      const info = await stat(dir);
      if (!info.isDirectory() || now - info.mtimeMs < 60_000) continue;
      await rmdir(dir);
      removed++;
    } catch {
      // not empty, or gone meanwhile: left alone
    }
  }
  return removed;
}

/** formidable's parser messages (`…: state = START`) in words a client can act on. */
function parserWords(error: Error): string {
  if (/stream ended unexpectedly/.test(error.message)) {
    return 'the body ends before the closing boundary line, or its parts do not start with the boundary';
  }
  if (/no multipart boundary/.test(error.message)) return 'the Content-Type has no boundary';
  return error.message;
}

/** formidable's errors as client errors; anything else (a full disk) stays a server error. */
function uploadError(error: unknown, fileField: string, limits: UploadLimits): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNRESET' || (error as Error).message === 'aborted') {
    return malformed('body: request aborted before it was complete', 'body');
  }
  if (typeof code !== 'number' || !('httpCode' in (error as object))) return error;
  switch (code) {
    case formidableErrors.biggerThanMaxFileSize:
    case formidableErrors.biggerThanTotalMaxFileSize:
      return bodyTooLarge(`body.${fileField}`, limits.file);
    case formidableErrors.maxFieldsSizeExceeded:
      return bodyTooLarge('body (form fields)', limits.fields);
    case formidableErrors.maxFieldsExceeded:
      return tooLarge('body: too many form fields', 'body');
    case formidableErrors.maxFilesExceeded:
      return invalid(`body.${fileField}: send exactly one file`, `body.${fileField}`);
    case formidableErrors.aborted:
      return malformed('body: request aborted before it was complete', 'body');
    default:
      return malformed(`body: malformed multipart/form-data (${parserWords(error as Error)})`, 'body');
  }
}
