// Every error becomes `{"detail": "…"}` with its status. A DomainError says what is wrong with
// the request and gets the status of its kind (lib/process/http-status.ts); a bus TimeoutError is a 504;
// anything unexpected is a 500 with a generic detail, and the error (with its stack) goes to
// the log only, under the request's correlation id.
import type { Context, Middleware } from 'koa';
import { DomainError, TimeoutError } from '../../lib/process/errors.ts';
import { statusOf } from '../../lib/process/http-status.ts';
import type { Logger } from '../../lib/process/log.ts';
import { hasBody } from './body.ts';
import { SECURITY_HEADERS } from './observe.ts';

export interface ErrorAnswer {
  status: number;
  detail: string;
}

const GENERIC = 'Internal Server Error';
const DRAIN_LIMIT = 64 * 1024;
const MAX_DETAIL = 2000;

/** Headers that survive an error: the rest (Content-Disposition, Location, …) belonged to the failed answer. */
const KEPT_HEADERS = new Set([
  'x-correlation-id',
  'vary',
  ...Object.keys(SECURITY_HEADERS).map((h) => h.toLowerCase()),
]);

export function toErrorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof DomainError) {
    return { status: statusOf(error.kind), detail: clip(error.detail) };
  }
  if (error instanceof TimeoutError) return { status: 504, detail: clip(error.message) };
  // Koa's ctx.throw / http-errors: a client error whose message is meant for the client.
  const http = error as { status?: unknown; expose?: unknown; message?: unknown };
  if (
    typeof http.status === 'number' &&
    http.status >= 400 &&
    http.status <= 499 &&
    http.expose === true &&
    typeof http.message === 'string'
  ) {
    return { status: http.status, detail: clip(http.message) };
  }
  return { status: 500, detail: GENERIC };
}

function clip(detail: string): string {
  return detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL)}…` : detail;
}

/**
 * Write an error answer on `ctx` (headers of the failed answer dropped, standard ones kept);
 * `json`: a body of the route's own shape instead of `{"detail"}`.
 */
export function answerError(ctx: Context, answer: ErrorAnswer, json?: unknown): void {
  for (const name of ctx.res.getHeaderNames()) {
    if (!KEPT_HEADERS.has(name)) ctx.res.removeHeader(name);
  }
  // Node drains an unread request body to reuse the connection; for a large or unknown one (an
  // upload refused early) closing is cheaper than reading it all, and a stalled one (408) never ends.
  const unread = !ctx.req.complete && hasBody(ctx.req);
  if (unread && (answer.status === 408 || !(Number(ctx.req.headers['content-length']) <= DRAIN_LIMIT))) {
    ctx.set('Connection', 'close');
  }
  ctx.status = answer.status;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(json ?? { detail: answer.detail });
}

export function errorHandler(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const logger = ctx.state.log as Logger | undefined;
      const answer = toErrorAnswer(error);
      if (answer.status >= 500 && answer.status !== 504) {
        logger?.error({ err: error }, 'request failed');
      } else {
        logger?.debug({ status: answer.status, detail: answer.detail }, 'request refused');
      }
      if (ctx.headerSent) return; // a streamed answer broke off; nothing more can be said
      answerError(ctx, answer);
    }
  };
}
