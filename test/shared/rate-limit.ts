// The gateways' rate limit on a shared store: `limit` requests per caller pass, the next is a
// 429 with Retry-After in the gateway's own error shape; callers are counted apart (API token,
// else address); two gateway processes on one store enforce one limit. Run on process memory
// (rate-limit.test.ts) and on Redis (rate-limit.redis.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { start } from '../gateways/kit/support.ts';
import type { OpenStores } from './conformance.ts';

const LIMITS = { maxEntries: 10, maxBytes: 1024 };

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

    test("each API token has its own count; the Action API answers in CKAN's envelope", async () => {
      const { stores, cleanup } = await open(LIMITS);
      const gateway = await start({ rateLimit: { limiter: stores.rateLimiter, limit: 2, windowMs: 60_000 } });
      const as = (token: string) => ({ headers: { authorization: token } });
      try {
        const action = `${gateway.url}/api/3/action/package_list`;
        for (let i = 0; i < 2; i += 1) assert.notEqual((await fetch(action, as('token-a'))).status, 429);
        const refused = await fetch(action, as('token-a'));
        assert.equal(refused.status, 429);
        assert.ok(Number(refused.headers.get('retry-after')) >= 1);
        const body = (await refused.json()) as {
          success: boolean;
          error: { __type: string; message: string };
        };
        assert.equal(body.success, false);
        assert.equal(body.error.__type, 'Rate Limit Error');
        assert.match(body.error.message, /from this API token \(LABLD_RATE_LIMIT\)/);
        // Another token, and the anonymous address, still have their whole budget.
        assert.notEqual((await fetch(action, as('token-b'))).status, 429);
        assert.notEqual((await fetch(action)).status, 429);
        assert.notEqual((await fetch(action, { headers: { 'x-ckan-api-key': 'token-c' } })).status, 429);
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
      const broken = { hit: () => Promise.reject(new Error('connection refused')) };
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
