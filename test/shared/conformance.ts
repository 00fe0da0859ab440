// The shared stores' contract, run on process memory (stores.test.ts) and on Redis
// (stores.redis.ts): the same answers from both, including under concurrent callers.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { CachedDocument, DocumentCacheLimits, SharedStores } from '../../lib/shared/contract.ts';

export interface Fresh {
  stores: SharedStores;
  /** Removes what the test left (its keys) and closes the stores. */
  cleanup(): Promise<void>;
}

export type OpenStores = (limits: DocumentCacheLimits) => Promise<Fresh>;

const LIMITS: DocumentCacheLimits = { maxEntries: 100, maxBytes: 1 << 20 };

function doc(body: string, extra: Partial<CachedDocument> = {}): CachedDocument {
  return {
    url: 'http://example.org/t.ttl',
    contentType: 'text/turtle',
    etag: '"v1"',
    lastModified: undefined,
    body: Buffer.from(body),
    freshUntil: 1000,
    ...extra,
  };
}

export function sharedStoresConformance(name: string, open: OpenStores): void {
  /** Runs `body` on fresh stores with `limits`, cleaning up whatever happens. */
  const using = async (limits: DocumentCacheLimits, body: (stores: SharedStores) => Promise<void>) => {
    const fresh = await open(limits);
    try {
      await body(fresh.stores);
    } finally {
      await fresh.cleanup();
    }
  };

  describe(`shared stores: ${name}`, () => {
    test('are ready', () => using(LIMITS, async (s) => assert.equal(await s.ready(), true)));

    test('documents: what is put comes back, bytes and validators alike; refresh and delete', () =>
      using(LIMITS, async ({ documents }) => {
        assert.equal(await documents.get('missing'), undefined);
        const bytes = Buffer.from([0, 255, 10, 13, 0xc3, 0x28]);
        await documents.put(
          'a',
          doc('', { body: bytes, etag: undefined, lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT' }),
        );
        const got = await documents.get('a');
        assert.ok(got);
        assert.ok(Buffer.isBuffer(got.body));
        assert.deepEqual([...got.body], [...bytes]);
        assert.deepEqual(
          { ...got, body: undefined },
          {
            url: 'http://example.org/t.ttl',
            contentType: 'text/turtle',
            etag: undefined,
            lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT',
            freshUntil: 1000,
            body: undefined,
          },
        );
        await documents.refresh('a', 5000);
        assert.equal((await documents.get('a'))?.freshUntil, 5000);
        await documents.refresh('gone', 5000);
        assert.equal(await documents.get('gone'), undefined);
        await documents.delete('a');
        assert.equal(await documents.get('a'), undefined);
      }));

    test('documents: past maxEntries the least recently used goes first', () =>
      using({ maxEntries: 2, maxBytes: 1000 }, async ({ documents }) => {
        await documents.put('a', doc('a'));
        await sleep(5);
        await documents.put('b', doc('b'));
        await sleep(5);
        await documents.get('a'); // a is now the most recently used
        await sleep(5);
        await documents.put('c', doc('c'));
        assert.equal((await documents.get('a'))?.body.toString(), 'a');
        assert.equal(await documents.get('b'), undefined);
        assert.equal((await documents.get('c'))?.body.toString(), 'c');
      }));

    test('documents: past maxBytes the oldest go; one larger than maxBytes is not kept; replacing counts once', () =>
      using({ maxEntries: 100, maxBytes: 10 }, async ({ documents }) => {
        await documents.put('a', doc('123456'));
        await sleep(5);
        await documents.put('a', doc('654321')); // replaces: still 6 bytes kept, not 12
        await sleep(5);
        await documents.put('b', doc('1234'));
        assert.equal((await documents.get('a'))?.body.toString(), '654321');
        await sleep(5);
        assert.equal((await documents.get('b'))?.body.toString(), '1234');
        await sleep(5);
        await documents.put('c', doc('12345'));
        // 6 + 4 + 5 > 10: a, the least recently used, goes; 4 + 5 fit.
        assert.equal(await documents.get('a'), undefined);
        assert.equal((await documents.get('b'))?.body.toString(), '1234');
        assert.equal((await documents.get('c'))?.body.toString(), '12345');
        await documents.put('big', doc('12345678901'));
        assert.equal(await documents.get('big'), undefined);
        assert.equal((await documents.get('c'))?.body.toString(), '12345');
      }));

    test('documents: maxEntries 0 keeps nothing', () =>
      using({ maxEntries: 0, maxBytes: 1000 }, async ({ documents }) => {
        await documents.put('a', doc('a'));
        assert.equal(await documents.get('a'), undefined);
      }));

    test('rate limiter: `limit` pass in a window, the next is refused with the time left; keys apart', () =>
      using(LIMITS, async ({ rateLimiter }) => {
        const answers = [];
        for (let i = 0; i < 4; i += 1) answers.push(await rateLimiter.hit('token-a', 3, 60_000));
        assert.deepEqual(
          answers.map((a) => [a.allowed, a.count]),
          [
            [true, 1],
            [true, 2],
            [true, 3],
            [false, 4],
          ],
        );
        assert.ok(answers[3]!.resetMs > 59_000 && answers[3]!.resetMs <= 60_000, String(answers[3]!.resetMs));
        assert.deepEqual(
          [
            (await rateLimiter.hit('token-b', 3, 60_000)).allowed,
            (await rateLimiter.hit('token-b', 3, 60_000)).count,
          ],
          [true, 2],
        );
      }));

    test('rate limiter: a new window starts once the last one ended', () =>
      using(LIMITS, async ({ rateLimiter }) => {
        assert.equal((await rateLimiter.hit('k', 1, 150)).allowed, true);
        assert.equal((await rateLimiter.hit('k', 1, 150)).allowed, false);
        await sleep(200);
        const again = await rateLimiter.hit('k', 1, 150);
        assert.deepEqual([again.allowed, again.count], [true, 1]);
      }));

    test('rate limiter: 50 concurrent hits with a limit of 7 let exactly 7 through', () =>
      using(LIMITS, async ({ rateLimiter }) => {
        const answers = await Promise.all(
          Array.from({ length: 50 }, () => rateLimiter.hit('burst', 7, 60_000)),
        );
        assert.equal(answers.filter((a) => a.allowed).length, 7);
        assert.deepEqual(
          answers.map((a) => a.count).sort((x, y) => x - y),
          Array.from({ length: 50 }, (_, i) => i + 1),
        );
      }));

    test('rate limiter: a key vouched for is known until its time runs out; others never are', () =>
      using(LIMITS, async ({ rateLimiter }) => {
        assert.equal(await rateLimiter.vouched('token:a'), false);
        await rateLimiter.vouch('token:a', 150);
        assert.deepEqual(
          [await rateLimiter.vouched('token:a'), await rateLimiter.vouched('token:b')],
          [true, false],
        );
        // Counting a key does not vouch for it.
        await rateLimiter.hit('token:b', 5, 60_000);
        assert.equal(await rateLimiter.vouched('token:b'), false);
        await sleep(200);
        assert.equal(await rateLimiter.vouched('token:a'), false);
      }));
  });
}
