// The gateways' rate limit on a shared store: `limit` requests per caller pass, the next is a
// 429 with Retry-After in the gateway's own error shape; callers are counted apart (an API token
// once a route accepted it, else the address), so a made-up token each time buys nothing; two
// gateway processes on one store enforce one limit. Run on process memory (rate-limit.test.ts)
// and on Redis (rate-limit.redis.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { createGateway, route, tokenAccepted, type RateLimitOptions } from '../../gateways/kit/index.ts';
import { unauthorized } from '../../lib/process/errors.ts';
import { sampleGateway, start } from '../gateways/kit/support.ts';
import type { OpenStores } from './conformance.ts';

const LIMITS = { maxEntries: 10, maxBytes: 1024 };

/** The tokens the test's Action API knows; any other is refused, as the catalogue refuses one. */
const KNOWN = new Set(['token-a', 'token-b', 'Bearer token-a']);

/**
 * A gateway with an Action API route that checks the token as the catalogue's does (a known one
 * is accepted, any other is a 401 naming Authorization), beside the sample gateway, whose routes
 * look at no token at all.
 */
function withTokens(rateLimit: RateLimitOptions) {
  const actions = createGateway({
    service: 'actions',
    basePath: '/api/3/action',
    title: 'actions',
    version: '1',
    description: 'an action that needs a known token',
    routes: [
      route({
        method: 'GET',
        path: '/whoami',
        summary: 'the caller',
        responses: { 200: { description: 'the token was accepted' } },
        handler: (_input, ctx) => {
          const token = ctx.get('authorization');
          if (!KNOWN.has(token))
            throw unauthorized('Authorization: this API token is unknown', 'Authorization');
          tokenAccepted(ctx);
          return { json: { success: true, result: token } };
        },
      }),
    ],
  });
  return start({ gateways: [actions, sampleGateway()], rateLimit });
}

const as = (token: string) => ({ headers: { authorization: token } });

export function rateLimitSuite(name: string, open: OpenStores): void {
  describe(`rate limit: ${name}`, () => {
    test('the request past the limit is a 429 with Retry-After and a detail naming LABLD_RATE_LIMIT', async () => {
      const { stores, cleanup } = await open(LIMITS);
      const gateway = await start({ rateLimit: { limiter: stores.rateLimiter, limit: 3, windowMs: 60_000 } });
      try {
        const docs = `${gateway.url}/annotator/api/openapi.json`;
        for (let i = 0; i < 3; i += 1) assert.equal((await fetch(docs)).status, 200);
        const refused = await fetch(docs);
        assert.equal(refused.status, 429);
        const retryAfter = Number(refused.headers.get('retry-after'));
        assert.ok(Number.isInteger(retryAfter) && retryAfter >= 59 && retryAfter <= 60, String(retryAfter));
        assert.match(refused.headers.get('content-type') ?? '', /^application\/json/);
        const body = (await refused.json()) as { detail: string };
        assert.match(
          body.detail,
          /more than 3 in 60 s from this address \(LABLD_RATE_LIMIT\); try again in (59|60) s/,
        );
        // Health and metrics are never counted: an orchestrator's probes must not be refused.
        for (let i = 0; i < 5; i += 1) assert.equal((await fetch(`${gateway.url}/healthz`)).status, 200);
      } finally {
        await gateway.close();
        await cleanup();
      }
    });

    test("an accepted API token has its own count; the Action API answers in CKAN's envelope", async () => {
      const { stores, cleanup } = await open(LIMITS);
      const gateway = await withTokens({ limiter: stores.rateLimiter, limit: 3, windowMs: 60_000 });
      const whoami = `${gateway.url}/api/3/action/whoami`;
      try {
        // A token's first request is the address's (the token is not known yet), then its own.
        assert.equal((await fetch(whoami, as('token-a'))).status, 200); // address 1
        for (let i = 0; i < 3; i += 1) assert.equal((await fetch(whoami, as('token-a'))).status, 200);
        const refused = await fetch(whoami, as('token-a'));
        assert.equal(refused.status, 429);
        assert.ok(Number(refused.headers.get('retry-after')) >= 1);
        const body = (await refused.json()) as {
          success: boolean;
          error: { __type: string; message: string };
        };
        assert.equal(body.success, false);
        assert.equal(body.error.__type, 'Rate Limit Error');
        assert.match(body.error.message, /from this API token \(LABLD_RATE_LIMIT\)/);
        // `Bearer token-a` is the same token, and the same count.
        assert.equal((await fetch(whoami, as('Bearer token-a'))).status, 429);
        // Another token, and the anonymous address, still have what is left of the address's budget.
        assert.equal((await fetch(whoami, as('token-b'))).status, 200); // address 2
        assert.equal((await fetch(whoami, as('token-b'))).status, 200); // token-b 1
        assert.equal((await fetch(`${gateway.url}/annotator/api/openapi.json`)).status, 200); // address 3
      } finally {
        await gateway.close();
        await cleanup();
      }
    });

    test('a made-up token each time is counted under the address: the flood is answered 429', async () => {
      const { stores, cleanup } = await open(LIMITS);
      const gateway = await withTokens({ limiter: stores.rateLimiter, limit: 3, windowMs: 60_000 });
      const whoami = `${gateway.url}/api/3/action/whoami`;
      const madeUp = () => as(`labld_${randomUUID()}`);
      try {
        // token-a is accepted once, and so counted apart, before the flood.
        assert.equal((await fetch(whoami, as('token-a'))).status, 200); // address 1
        // Refused tokens (a 401 each) and a route that reads no token alike count for the address.
        const statuses = [];
        for (let i = 0; i < 3; i += 1) statuses.push((await fetch(whoami, madeUp())).status);
        for (let i = 0; i < 3; i += 1) {
          statuses.push((await fetch(`${gateway.url}/annotator/api/openapi.json`, madeUp())).status);
        }
        assert.deepEqual(statuses, [401, 401, 429, 429, 429, 429]);
        const refused = await fetch(whoami, madeUp());
        assert.equal(refused.status, 429);
        assert.match(
          ((await refused.json()) as { error: { message: string } }).error.message,
          /from this address/,
        );
        // A token accepted before keeps its own budget while its address is flooded.
        assert.equal((await fetch(whoami, as('token-a'))).status, 200);
      } finally {
        await gateway.close();
        await cleanup();
      }
    });

    test('two gateway processes on one store enforce one limit', async () => {
      const { stores, cleanup } = await open(LIMITS);
      const options = { rateLimit: { limiter: stores.rateLimiter, limit: 4, windowMs: 60_000 } };
      const [one, two] = [await start(options), await start(options)];
      try {
        const statuses = [];
        for (let i = 0; i < 6; i += 1) {
          const gateway = i % 2 === 0 ? one : two;
          statuses.push((await fetch(`${gateway.url}/annotator/api/openapi.json`)).status);
        }
        assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
      } finally {
        await one.close();
        await two.close();
        await cleanup();
      }
    });

    test('a store that cannot be reached lets requests through', async () => {
      const down = () => Promise.reject(new Error('connection refused'));
      const broken = { hit: down, vouch: down, vouched: down };
      const gateway = await start({ rateLimit: { limiter: broken, limit: 1, windowMs: 60_000 } });
      try {
        for (let i = 0; i < 3; i += 1) {
          assert.equal((await fetch(`${gateway.url}/annotator/api/openapi.json`)).status, 200);
        }
      } finally {
        await gateway.close();
      }
    });
  });
}
