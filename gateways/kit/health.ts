// Process-level endpoints, once per process whatever is mounted: liveness, readiness (the
// registered checks, e.g. the bus is connected) and the Prometheus scrape. The scrape tells a
// stranger what the process does and how much (routes, topics, lags), so by default it is
// answered to a caller on the same machine only (LABLD_METRICS) or one with LABLD_METRICS_TOKEN.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { setting } from '../../lib/process/config.ts';
import { forbidden, notFound } from '../../lib/process/errors.ts';
import { registry } from '../../lib/process/metrics.ts';
import { answerError } from './errors.ts';
import type { KitState } from './observe.ts';

export interface ReadinessCheck {
  /** Shown in the /readyz answer, e.g. `bus`. */
  name: string;
  /** Ready when it resolves to anything but `false`; a rejection's message says why not. */
  check: () => boolean | void | Promise<boolean | void>;
  /** Default 2000 ms: a hanging dependency counts as not ready. */
  timeoutMs?: number;
}

async function run(check: ReadinessCheck): Promise<string> {
  const timeoutMs = check.timeoutMs ?? 2000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`timed out after ${timeoutMs} ms`), timeoutMs);
  });
  try {
    const outcome = Promise.resolve()
      .then(check.check)
      .then(
        (ok) => (ok === false ? 'not ready' : 'ok'),
        (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'failed',
      );
    return await Promise.race([outcome, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function readyz(ctx: Context, checks: readonly ReadinessCheck[]): Promise<void> {
  const results = await Promise.all(checks.map(async (c) => [c.name, await run(c)] as const));
  const failed = results.filter(([, outcome]) => outcome !== 'ok');
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'application/json';
  if (failed.length === 0) {
    ctx.body = JSON.stringify({ status: 'ok', checks: Object.fromEntries(results) });
    return;
  }
  ctx.status = 503;
  ctx.body = JSON.stringify({
    status: 'unavailable',
    detail: `not ready: ${failed.map(([name, outcome]) => `${name} (${outcome})`).join(', ')}`,
    checks: Object.fromEntries(results),
  });
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** A loopback peer that no proxy forwarded (a proxy on this machine would make everyone local). */
function local(ctx: Context): boolean {
  const peer = ctx.req.socket.remoteAddress ?? '';
  const forwarded = ctx.get('x-forwarded-for') !== '' || ctx.get('forwarded') !== '';
  return !forwarded && /^(127\.|::1$|::ffff:127\.)/.test(peer);
}

/** Throws unless LABLD_METRICS and LABLD_METRICS_TOKEN let this request read /metrics. */
function checkMetricsAccess(ctx: Context): void {
  const mode = setting('LABLD_METRICS');
  if (mode === 'off') throw notFound('/metrics is off (LABLD_METRICS=off)', 'path');
  if (mode === 'public') return;
  if (mode !== 'local' && mode !== 'token') {
    throw new Error(`LABLD_METRICS must be local, token, public or off, got ${JSON.stringify(mode)}`);
  }
  const token = setting('LABLD_METRICS_TOKEN');
  const sent = /^bearer\s+(.+)$/i.exec(ctx.get('authorization').trim())?.[1];
  if (token !== '' && sent !== undefined && timingSafeEqual(digest(sent), digest(token))) return;
  if (mode === 'local' && local(ctx)) return;
  throw forbidden(
    mode === 'local'
      ? '/metrics is answered to this machine only (LABLD_METRICS=local); elsewhere send Authorization: Bearer LABLD_METRICS_TOKEN'
      : '/metrics needs Authorization: Bearer LABLD_METRICS_TOKEN (LABLD_METRICS=token)',
    'Authorization',
  );
}

/** Answers /healthz, /readyz and /metrics; every other path goes on. `checks` is read on each call. */
export function healthRoutes(checks: () => readonly ReadinessCheck[]): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/healthz' && ctx.path !== '/readyz' && ctx.path !== '/metrics') return next();
    (ctx.state as KitState).route = ctx.path;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      answerError(ctx, { status: 405, detail: 'Method Not Allowed' });
      ctx.set('Allow', 'GET, HEAD');
      return;
    }
    if (ctx.path === '/healthz') {
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'application/json';
      ctx.body = JSON.stringify({ status: 'ok' });
    } else if (ctx.path === '/readyz') {
      await readyz(ctx, checks());
    } else {
      checkMetricsAccess(ctx);
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    }
  };
}
