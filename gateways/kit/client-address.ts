// Who a request comes from, for the login throttle and the rate limit. The TCP peer, unless
// LABLD_TRUSTED_PROXIES says how many reverse proxies stand in front of labld: then the address
// the outermost of them recorded in X-Forwarded-For. Each proxy appends the peer it saw, so only
// the last `n` entries are the trusted proxies' own; anything before them the client wrote.
import type { Context } from 'koa';
import { intSetting } from '../../lib/process/config.ts';

export function clientAddress(ctx: Context): string {
  const peer = ctx.req.socket.remoteAddress ?? 'unknown';
  const proxies = intSetting('LABLD_TRUSTED_PROXIES');
  if (proxies === 0) return peer;
  const forwarded = ctx
    .get('x-forwarded-for')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  // Fewer entries than proxies: the client reached an inner proxy directly, which recorded it.
  return forwarded[Math.max(0, forwarded.length - proxies)] ?? peer;
}
