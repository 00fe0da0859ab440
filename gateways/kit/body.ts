// JSON request bodies: read with a byte limit (refused early from Content-Length, else counted
// while reading, never buffered past the limit), strict UTF-8, checked for nesting depth
// (LABLD_MAX_DEPTH: what is built from the value later recurses, e.g. JSON.stringify), then parsed.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import type { DomainError } from '../../lib/process/errors.ts';
import { invalid, malformed, slowClient, tooLarge, unsupported } from '../../lib/process/errors.ts';
import { checkJsonDepth, maxDepth } from '../../lib/limits.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** RFC 9112: a request has a body when it declares a length or a transfer coding. */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['KB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

export function bodyTooLarge(what: string, limit: number): DomainError {
  return tooLarge(`${what}: larger than the limit of ${formatBytes(limit)}`, 'body');
}

/**
 * A body that stops arriving: after `ms` without a byte (0: never) `onIdle` gets a 408. Idle,
 * not total: a large upload on a slow but moving link may take as long as it needs. Time while
 * the reader itself paused the request (disk back-pressure) does not count.
 */
export function idleTimer(
  req: IncomingMessage,
  ms: number,
  onIdle: (error: DomainError) => void,
): { touch(): void; stop(): void } {
  if (ms <= 0) return { touch() {}, stop() {} };
  let timer: NodeJS.Timeout | undefined;
  const fire = (): void => {
    if (req.isPaused()) return touch();
    onIdle(
      slowClient(
        `body: no bytes received for ${ms} ms, the request was given up (LABLD_BODY_IDLE_TIMEOUT_MS)`,
        'body',
      ),
    );
  };
  const touch = (): void => {
    clearTimeout(timer);
    timer = setTimeout(fire, ms);
  };
  touch();
  return { touch, stop: () => clearTimeout(timer) };
}

/** Compressed request bodies would defeat the byte limit; nobody in the spec sends them. */
export function assertIdentityEncoding(req: IncomingMessage): void {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    throw unsupported(`body: Content-Encoding ${encoding} is not supported`, 'body');
  }
}

/**
 * The parsed JSON body, or `undefined` when there is none. Like FastAPI, a body without a
 * Content-Type is read as JSON; `application/json` and `application/*+json` (e.g. ld+json) are JSON.
 */
export async function readJson(
  ctx: Context,
  limit: number,
  idleMs = 0,
  depth = maxDepth(),
): Promise<unknown> {
  if (!hasBody(ctx.req)) return undefined;
  const type = ctx.request.type;
  if (type !== '' && type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type)) {
    throw unsupported(`body: expected application/json, got ${type}`, 'body');
  }
  const charset = ctx.request.charset;
  if (charset !== '' && charset.toLowerCase() !== 'utf-8' && charset.toLowerCase() !== 'utf8') {
    throw unsupported(`body: charset ${charset} is not supported, send UTF-8`, 'body');
  }
  assertIdentityEncoding(ctx.req);
  const bytes = await readLimited(ctx.req, limit, idleMs);
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw malformed('body: invalid JSON (not UTF-8)', 'body');
  }
  checkJsonDepth(text, 'body', depth, true);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw malformed(`body: invalid JSON (${(error as Error).message})`, 'body');
  }
}

/** All bytes of the request, or a 413 as soon as they pass `limit` (the rest is left unread). */
function readLimited(req: IncomingMessage, limit: number, idleMs: number): Promise<Buffer> {
  if (Number(req.headers['content-length']) > limit) return Promise.reject(bodyTooLarge('body', limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const idle = idleTimer(req, idleMs, (error) => {
      stop();
      reject(error);
    });
    const stop = (): void => {
      idle.stop();
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      idle.touch();
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      req.pause();
      reject(bodyTooLarge('body', limit));
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onAbort = (): void => {
      stop();
      reject(malformed('body: request aborted before it was complete', 'body'));
    };
    const onClose = (): void => {
      if (!req.complete) onAbort();
    };
    req.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onClose);
  });
}

/** The body as UTF-8 text (a SPARQL query or update), refused past `limit` bytes; no body: ''. */
export async function readText(ctx: Context, limit: number, idleMs = 0): Promise<string> {
  if (!hasBody(ctx.req)) return '';
  assertIdentityEncoding(ctx.req);
  try {
    return utf8.decode(await readLimited(ctx.req, limit, idleMs));
  } catch (error) {
    if (error instanceof TypeError) throw malformed('body: not UTF-8', 'body');
    throw error;
  }
}

/** The pairs of an `application/x-www-form-urlencoded` body, in order; no body: none. */
async function formEntries(ctx: Context, limit: number, idleMs: number): Promise<[string, string][]> {
  if (!hasBody(ctx.req)) return [];
  if (ctx.request.type !== 'application/x-www-form-urlencoded') {
    throw unsupported(
      `body: expected application/x-www-form-urlencoded, got ${ctx.request.type || 'nothing'}`,
      'body',
    );
  }
  assertIdentityEncoding(ctx.req);
  let text: string;
  try {
    text = utf8.decode(await readLimited(ctx.req, limit, idleMs));
  } catch (error) {
    if (error instanceof TypeError) throw malformed('body: the form is not UTF-8', 'body');
    throw error;
  }
  return [...new URLSearchParams(text)];
}

/**
 * An `application/x-www-form-urlencoded` body (a plain HTML form) as one string per field; a
 * field given twice is `invalid` naming it. No body: an empty form.
 */
export async function readForm(ctx: Context, limit: number, idleMs = 0): Promise<Record<string, string>> {
  // No prototype: a field named `__proto__` is a field like any other.
  const fields = Object.create(null) as Record<string, string>;
  for (const [name, value] of await formEntries(ctx, limit, idleMs)) {
    if (Object.hasOwn(fields, name)) throw invalid(`${name}: given more than once`, name);
    fields[name] = value;
  }
  return fields;
}

/** A form as CKAN's API reads one (werkzeug's MultiDict, mixed): a field given twice is a list. */
export async function readFormLists(
  ctx: Context,
  limit: number,
  idleMs = 0,
): Promise<Record<string, string | string[]>> {
  const fields = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of await formEntries(ctx, limit, idleMs)) {
    const held = fields[name];
    fields[name] = held === undefined ? value : [...(Array.isArray(held) ? held : [held]), value];
  }
  return fields;
}
