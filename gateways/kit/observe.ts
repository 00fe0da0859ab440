// The outermost middleware: correlation id, security headers, and when the response is done one
// log line and one histogram observation per request.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Middleware } from 'koa';
import type { Logger } from '../../lib/process/log.ts';
import { httpRequests } from '../../lib/process/metrics.ts';

export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
  'Referrer-Policy': 'no-referrer',
} as const;

/** A caller's id is reused only when it cannot smuggle anything into logs or headers. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Probes and scrapes come every few seconds; their lines are debug so that they do not drown the log. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export function correlationIdOf(headers: IncomingHttpHeaders): string {
  for (const name of ['x-correlation-id', 'x-request-id']) {
    const value = headers[name];
    if (typeof value === 'string' && SAFE_ID.test(value)) return value;
  }
  return randomUUID();
}

/** Per-request state the kit's middleware share on `ctx.state`. */
export interface KitState {
  correlationId: string;
  log: Logger;
  /** Set by the gateway that took the request: labels of the log line and the histogram. */
  service?: string;
  route?: string;
}

export function observe(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const correlationId = correlationIdOf(ctx.headers);
    const state = ctx.state as KitState;
    state.correlationId = correlationId;
    const requestLog = logger.child({ correlationId });
    state.log = requestLog;
    ctx.set('x-correlation-id', correlationId);
    ctx.set(SECURITY_HEADERS);

    ctx.res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = ctx.res.statusCode;
      const service = state.service ?? 'labld';
      const route = state.route ?? 'unmatched';
      const method = METHODS.has(ctx.method) ? ctx.method : 'OTHER';
      httpRequests.observe({ service, method, route, status: String(status) }, seconds);
      const line = {
        method: ctx.method,
        path: ctx.path,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        service,
        route,
        // The client went away before the whole answer was written.
        ...(ctx.res.writableFinished ? {} : { aborted: true }),
      };
      const level = QUIET_PATHS.has(ctx.path) ? 'debug' : status >= 500 ? 'warn' : 'info';
      requestLog[level](line, 'request');
    });
    await next();
  };
}
