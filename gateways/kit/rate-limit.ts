// Per-caller rate limit at every gateway (LABLD_RATE_LIMIT requests per LABLD_RATE_LIMIT_WINDOW_S):
// a caller is its API token (hashed: no secret is a key in a shared store) or, without one, its
// client address. Past the limit the answer is 429 with Retry-After, worded as the gateway's
// other errors are: CKAN's envelope on the Action API, `{"detail": …}` elsewhere. The counts
// live in the shared stores, so N gateway processes on Redis enforce one limit, not N.
import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { intSetting } from '../../lib/process/config.ts';
import type { Logger } from '../../lib/process/log.ts';
import { rateLimited } from '../../lib/process/metrics.ts';
import type { RateLimiter } from '../../lib/shared/contract.ts';
import { answerError } from './errors.ts';

export interface RateLimitOptions {
  limiter: RateLimiter;
  /** Requests per caller per window. */
  limit: number;
  windowMs: number;
}

/** The configured limit on `limiter`; undefined when LABLD_RATE_LIMIT is 0 (no limit). */
export function rateLimitFromEnv(
  limiter: RateLimiter,
  env: NodeJS.ProcessEnv = process.env,
): RateLimitOptions | undefined {
  const limit = intSetting('LABLD_RATE_LIMIT', env);
  if (limit === 0) return undefined;
  const windowS = intSetting('LABLD_RATE_LIMIT_WINDOW_S', env);
  if (windowS < 1) throw new Error('LABLD_RATE_LIMIT_WINDOW_S must be at least 1');
  return { limiter, limit, windowMs: windowS * 1000 };
}

/** The CKAN Action API's paths answer in CKAN's envelope. */
const ACTION_API = /^\/api\/(3\/)?action\//;

/** Who is counted: the token a request carries (hashed), else its address. */
export function callerKey(ctx: Context): string {
  const token = ctx.get('authorization') || ctx.get('x-ckan-api-key');
  if (token) return `token:${createHash('sha256').update(token).digest('hex')}`;
  return `address:${ctx.ip}`;
}

export function rateLimit(options: RateLimitOptions): Middleware {
  const { limiter, limit, windowMs } = options;
  const windowS = windowMs / 1000;
  return async (ctx, next) => {
    let decision;
    try {
      decision = await limiter.hit(callerKey(ctx), limit, windowMs);
    } catch (error) {
      // A store that cannot be reached lets requests through: the limit guards labld, it must not stop it.
      (ctx.state.log as Logger | undefined)?.warn({ err: error }, 'rate limit not checked');
      return next();
    }
    if (decision.allowed) return next();
    const seconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    const detail =
      `Too many requests: more than ${limit} in ${windowS} s from this ` +
      `${ctx.get('authorization') || ctx.get('x-ckan-api-key') ? 'API token' : 'address'} ` +
      `(LABLD_RATE_LIMIT); try again in ${seconds} s`;
    const ckan = ACTION_API.test(ctx.path)
      ? { success: false, error: { __type: 'Rate Limit Error', message: detail } }
      : undefined;
    rateLimited.inc();
    answerError(ctx, { status: 429, detail }, ckan);
    ctx.set('Retry-After', String(seconds));
  };
}
