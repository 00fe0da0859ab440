// Multipart uploads streamed to disk (formidable), never held in memory. The kit picks the
// location, a fresh directory per request under `<LABLD_DATA>/uploads/`; the client's file name
// is metadata only. The directory is removed when the response is done, unless the handler
// took ownership with `file.keep()` (or moved the file away).
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import formidable, { errors as formidableErrors, type Part } from 'formidable';
import type { Context } from 'koa';
import { ClientError } from '../../lib/errors.ts';
import { assertIdentityEncoding, hasBody, idleTimer, tooLarge } from './body.ts';
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

export interface ReceivedUpload {
  /** The other form fields: one string per name, an array when a name repeats. */
  fields: Record<string, string | string[]>;
  file: UploadedFile;
}

/** The client's name reduced to its last path segment without control characters. */
export function displayName(name: string | null | undefined): string {
  const last = (name ?? '').split(/[/\\]/).pop() ?? '';
  const clean = last
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, 255);
  return clean === '' || clean === '.' || clean === '..' ? 'upload' : clean;
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
  const missing = new ClientError(422, `body.${fileField}: is required`, `body.${fileField}`);
  if (!hasBody(ctx.req)) throw missing;
  if (!ctx.is('multipart/form-data')) {
    throw new ClientError(
      415,
      `body: expected multipart/form-data, got ${ctx.request.type || 'nothing'}`,
      'body',
    );
  }
  assertIdentityEncoding(ctx.req);

  const dir = path.join(uploadRoot, randomUUID());
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let kept = false;
  // 'close' comes after the last byte of the response (or an aborted connection), so a handler
  // may still answer with the uploaded file itself.
  ctx.res.once('close', () => {
    if (kept) return;
    rm(dir, { recursive: true, force: true }).catch((error: unknown) =>
      (ctx.state as KitState).log.warn({ err: error, dir }, 'could not remove upload directory'),
    );
  });

  const form = formidable({
    uploadDir: dir,
    maxFiles: 1,
    maxFileSize: limits.file,
    maxTotalFileSize: limits.file,
    maxFieldsSize: limits.fields,
    maxFields: 200,
    allowEmptyFiles: true,
    minFileSize: 0,
    filename: (_name, _ext, part) => storedName(displayName(part.originalFilename)),
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

/** formidable's errors as client errors; anything else (a full disk) stays a server error. */
function uploadError(error: unknown, fileField: string, limits: UploadLimits): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNRESET' || (error as Error).message === 'aborted') {
    return new ClientError(400, 'body: request aborted before it was complete', 'body');
  }
  if (typeof code !== 'number' || !('httpCode' in (error as object))) return error;
  switch (code) {
    case formidableErrors.biggerThanMaxFileSize:
    case formidableErrors.biggerThanTotalMaxFileSize:
      return tooLarge(`body.${fileField}`, limits.file);
    case formidableErrors.maxFieldsSizeExceeded:
      return tooLarge('body (form fields)', limits.fields);
    case formidableErrors.maxFieldsExceeded:
      return new ClientError(413, 'body: too many form fields', 'body');
    case formidableErrors.maxFilesExceeded:
      return new ClientError(422, `body.${fileField}: send exactly one file`, `body.${fileField}`);
    case formidableErrors.aborted:
      return new ClientError(400, 'body: request aborted before it was complete', 'body');
    default:
      return new ClientError(
        400,
        `body: malformed multipart/form-data (${(error as Error).message})`,
        'body',
      );
  }
}
