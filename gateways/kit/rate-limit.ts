// Per-caller rate limit at every gateway (LABLD_RATE_LIMIT requests per LABLD_RATE_LIMIT_WINDOW_S):
// a caller is its API token (hashed: no secret is a key in a shared store) once labld has
// accepted that token, else its client address. A token is counted on its own only after a
// route accepted it (tokenAccepted; the limiter vouches for it for a while), because the count
// comes before the check: were every token counted apart, a caller sending a new made-up token
// each time would get a fresh budget each time. Past the limit the answer is 429 with
// Retry-After, worded as the gateway's other errors are: CKAN's envelope on the Action API,
// `{"detail": …}` elsewhere. The counts live in the shared stores, so N gateway processes on
// Redis enforce one limit, not N.
import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { intSetting } from '../../lib/process/config.ts';
import type { Logger } from '../../lib/process/log.ts';
import { rateLimited } from '../../lib/process/metrics.ts';
import type { RateLimiter } from '../../lib/shared/contract.ts';
import { clientAddress } from './client-address.ts';
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

/** How long an accepted token is counted on its own; after that, its next accepted request vouches again. */
const VOUCHED_MS = 60 * 60_000;

/** Where a route leaves word that it accepted the request's API token (see tokenAccepted). */
const ACCEPTED = Symbol('labld.tokenAccepted');

/**
 * A route found the request's API token valid (the catalogue's actions and pages, after the
 * token resolved to a user): from the next request on, the token has a count of its own.
 */
export function tokenAccepted(ctx: Context): void {
  (ctx.state as Record<symbol, boolean>)[ACCEPTED] = true;
}

/** The key of the API token a request carries (hashed; `Bearer ` or not), or undefined. */
function tokenKey(ctx: Context): string | undefined {
  const header = (ctx.get('authorization') || ctx.get('x-ckan-api-key')).trim();
  const token = /^bearer\s+(\S+)$/i.exec(header)?.[1] ?? header;
  return token ? `token:${createHash('sha256').update(token).digest('hex')}` : undefined;
}

/** Who is counted: the request's API token if labld accepted it before, else the client address. */
async function callerKey(ctx: Context, limiter: RateLimiter): Promise<string> {
  const token = tokenKey(ctx);
  return token && (await limiter.vouched(token)) ? token : `address:${clientAddress(ctx)}`;
}

export function rateLimit(options: RateLimitOptions): Middleware {
  const { limiter, limit, windowMs } = options;
  const windowS = windowMs / 1000;
  return async (ctx, next) => {
    let key;
    let decision;
    try {
      key = await callerKey(ctx, limiter);
      decision = await limiter.hit(key, limit, windowMs);
    } catch (error) {
      // A store that cannot be reached lets requests through: the limit guards labld, it must not stop it.
      (ctx.state.log as Logger | undefined)?.warn({ err: error }, 'rate limit not checked');
      return next();
    }
    if (decision.allowed) {
      await next();
      const token = tokenKey(ctx);
      if (token && token !== key && (ctx.state as Record<symbol, boolean>)[ACCEPTED]) {
        await limiter.vouch(token, VOUCHED_MS).catch((error: unknown) => {
          (ctx.state.log as Logger | undefined)?.warn({ err: error }, 'accepted API token not recorded');
        });
      }
      return;
    }
    const seconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    const detail =
      `Too many requests: more than ${limit} in ${windowS} s from this ` +
      `${key.startsWith('token:') ? 'API token' : 'address'} (LABLD_RATE_LIMIT); try again in ${seconds} s`;
    const ckan = ACTION_API.test(ctx.path)
      ? { success: false, error: { __type: 'Rate Limit Error', message: detail } }
      : undefined;
    rateLimited.inc();
    answerError(ctx, { status: 429, detail }, ckan);
    ctx.set('Retry-After', String(seconds));
  };
}
