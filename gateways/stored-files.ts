// The one route for labld's stored files (uploads named in answers, lib/blobs/published.ts):
// served with the type and charset recorded when they were stored, the original name in
// Content-Disposition, an ETag (the blob key is the content's hash, so it never changes for an
// id) and single byte ranges, so a large CSV can be resumed or sampled. As every user file
// (kit/user-file.ts): no sniffing, a sandbox CSP, a download unless the type is harmless.
import { createReadStream } from 'node:fs';
import type { Context } from 'koa';
import type { BlobStore } from '../lib/blobs/blob-store.ts';
import { servedContentType } from '../lib/blobs/published.ts';
import { storedFile } from '../lib/sources.ts';
import type { Result } from './kit/index.ts';
import { userFileHeaders } from './kit/user-file.ts';

/** The one range of a `Range: bytes=…` header, or undefined (absent, several or not bytes: the whole file). */
function rangeOf(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/** GET of a stored file by its published id and name (a 404 `{detail}` for anything else). */
export async function serveStoredFile(
  blobs: BlobStore,
  params: { id: string; name: string },
  ctx: Context,
): Promise<Result> {
  const entry = await storedFile(blobs, params.id, params.name, 'id');
  const path = blobs.path(entry.blob, 'id');
  const size = blobs.size(entry.blob);
  const etag = `"${entry.blob}"`;
  const served = userFileHeaders(servedContentType(entry), entry.name);
  const headers: Record<string, string> = {
    ...served.headers,
    etag,
    'accept-ranges': 'bytes',
    'cache-control': 'private, max-age=0, must-revalidate',
  };
  const contentType = served.contentType;
  const match = ctx.get('if-none-match');
  if (match && match.split(/\s*,\s*/).some((tag) => tag === etag || tag === `W/${etag}` || tag === '*'))
    return { status: 304, headers };
  const ifRange = ctx.get('if-range');
  const range = ifRange && ifRange !== etag ? undefined : rangeOf(ctx.get('range'), size);
  if (range === 'unsatisfiable')
    return { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } };
  if (range === undefined) return { body: { path }, contentType, headers };
  return {
    status: 206,
    body: createReadStream(path, { start: range.start, end: range.end }),
    contentType,
    headers: {
      ...headers,
      'content-range': `bytes ${range.start}-${range.end}/${size}`,
      'content-length': String(range.end - range.start + 1),
    },
  };
}
