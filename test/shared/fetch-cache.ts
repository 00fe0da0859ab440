// The fetch cache at work against an origin that counts what it is asked: 100 conversions
// against one template fetch it once; a stale copy is revalidated (304) or replaced; the
// origin's Cache-Control is obeyed; and the cache never lets a request past the guard. Run on
// process memory (fetch-cache.test.ts) and on Redis (fetch-cache.redis.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRdf } from '../../lib/converter/index.ts';
import { fetchDocument } from '../../lib/fetch/cached-fetch.ts';
import { makePolicy } from '../../lib/fetch/guarded-fetch.ts';
import { textLoader } from '../../lib/sources.ts';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { readSeed } from '../support/shared.ts';
import { removeTempDir, tempDir } from '../support/temp.ts';
import { rejectsWith, tableResolver, testPolicy } from '../fetch/helpers.ts';
import type { OpenStores } from './conformance.ts';
import { CountingOrigin } from './origin.ts';
import { DESCRIPTOR_URL, SEED_FILES, TEMPLATE_URL, CSVW_MAPPING_URL } from '../converter/support.ts';

const LIMITS = { maxEntries: 100, maxBytes: 1 << 22 };

export function fetchCacheSuite(name: string, open: OpenStores): void {
  describe(`fetch cache: ${name}`, () => {
    const origin = new CountingOrigin();
    const dataDir = tempDir('labld-fetch-cache-');
    before(() => origin.start());
    after(async () => {
      await origin.server.close();
      removeTempDir(dataDir);
    });

    test('100 conversions against one template URL: the origin sends the template once', async () => {
      const templateUrl = origin.url('/template.ttl');
      const descriptorUrl = origin.url('/example-metadata.json');
      origin.files.set('/template.ttl', {
        body: readSeed(SEED_FILES[TEMPLATE_URL]!),
        etag: '"template-1"',
        type: 'text/turtle',
      });
      origin.files.set('/example-metadata.json', {
        body: readSeed(SEED_FILES[DESCRIPTOR_URL]!),
        type: 'application/json',
      });
      origin.files.set('/map.yaml', {
        body: readSeed(SEED_FILES[CSVW_MAPPING_URL]!)
          .replaceAll(TEMPLATE_URL, templateUrl)
          .replaceAll(DESCRIPTOR_URL, descriptorUrl),
        etag: '"map-1"',
      });
      const { stores, cleanup } = await open(LIMITS);
      try {
        const load = textLoader({
          blobs: blobStoreIn(dataDir),
          policy: testPolicy({ maxBytes: 1 << 22 }),
          cache: stores.documents,
        });
        // Ten rounds of ten side by side: concurrent misses share one fetch, later ones hit the cache.
        for (let round = 0; round < 10; round += 1) {
          const results = await Promise.all(
            Array.from({ length: 10 }, () =>
              createRdf(
                {
                  mappingUrl: origin.url('/map.yaml'),
                  dataUrl: descriptorUrl,
                  activity: 'http://localhost/converter/api/createrdf',
                  now: new Date('2026-11-25T12:00:00Z'),
                },
                load,
              ),
            ),
          );
          // Each of the 7 rules links to the template's IRIs: the template was there every time.
          for (const result of results) {
            assert.deepEqual([result.num_mappings_applied, result.num_mappings_skipped], [7, 0]);
          }
        }
        assert.deepEqual(origin.count('/template.ttl'), { full: 1, notModified: 0 });
        assert.deepEqual(origin.count('/map.yaml'), { full: 1, notModified: 0 });
        // The data is the client's and read fresh each time (data_url is never cached).
        assert.deepEqual(origin.count('/example-metadata.json'), { full: 100, notModified: 0 });
      } finally {
        await cleanup();
      }
    });

    test('a stale copy is revalidated: a 304 keeps it, a new ETag replaces it', async () => {
      origin.files.set('/stale.ttl', { body: 'first', etag: '"s1"' });
      const { stores, cleanup } = await open(LIMITS);
      let clock = 1_000_000;
      const get = () =>
        fetchDocument(origin.url('/stale.ttl'), {
          field: 'template_url',
          cache: stores.documents,
          policy: testPolicy(),
          freshMs: 1000,
          now: () => clock,
        });
      try {
        assert.equal((await get()).text(), 'first');
        clock += 500; // still fresh: nothing asked
        assert.equal((await get()).text(), 'first');
        assert.deepEqual(origin.count('/stale.ttl'), { full: 1, notModified: 0 });
        clock += 1000; // stale: asked with If-None-Match, answered 304
        assert.equal((await get()).text(), 'first');
        clock += 500; // fresh again after the 304
        assert.equal((await get()).text(), 'first');
        assert.deepEqual(origin.count('/stale.ttl'), { full: 1, notModified: 1 });
        origin.files.set('/stale.ttl', { body: 'second', etag: '"s2"' });
        clock += 1000;
        assert.equal((await get()).text(), 'second');
        assert.deepEqual(origin.count('/stale.ttl'), { full: 2, notModified: 1 });
      } finally {
        await cleanup();
      }
    });

    test("the origin's Cache-Control wins: max-age keeps a copy fresh, no-store and private are never kept", async () => {
      origin.files.set('/max-age.ttl', { body: 'kept', etag: '"m"', cacheControl: 'public, max-age=600' });
      origin.files.set('/no-store.ttl', { body: 'not kept', etag: '"n"', cacheControl: 'no-store' });
      origin.files.set('/private.ttl', { body: 'not kept', cacheControl: 'private, max-age=600' });
      const { stores, cleanup } = await open(LIMITS);
      try {
        for (const path of ['/max-age.ttl', '/no-store.ttl', '/private.ttl']) {
          for (let i = 0; i < 3; i += 1) {
            await fetchDocument(origin.url(path), {
              field: 'template_url',
              cache: stores.documents,
              policy: testPolicy(),
              freshMs: 0,
            });
          }
        }
        assert.deepEqual(origin.count('/max-age.ttl'), { full: 1, notModified: 0 });
        assert.deepEqual(origin.count('/no-store.ttl'), { full: 3, notModified: 0 });
        assert.deepEqual(origin.count('/private.ttl'), { full: 3, notModified: 0 });
      } finally {
        await cleanup();
      }
    });

    test('the cache lets no request past the guard: another policy or other credentials fetch (or are refused) anew', async () => {
      origin.files.set('/guarded.ttl', { body: 'inside', etag: '"g"' });
      const { stores, cleanup } = await open(LIMITS);
      const url = origin.url('/guarded.ttl');
      const options = { field: 'template_url', cache: stores.documents, freshMs: 60_000 };
      try {
        assert.equal((await fetchDocument(url, { ...options, policy: testPolicy() })).text(), 'inside');
        // A process whose LABLD_FETCH_ALLOW does not name loopback is refused, copy or no copy.
        const strict = makePolicy({ resolve: tableResolver({}) });
        await rejectsWith(fetchDocument(url, { ...options, policy: strict }), 'forbidden', 'loopback');
        // Other credentials are another copy: the origin is asked, with them.
        await fetchDocument(url, { ...options, policy: testPolicy(), authorization: 'Bearer other' });
        await fetchDocument(url, { ...options, policy: testPolicy(), authorization: 'Bearer other' });
        assert.deepEqual(origin.count('/guarded.ttl'), { full: 2, notModified: 0 });
        assert.equal(origin.authorizations.at(-1), 'Bearer other');
        // A policy with a smaller size limit never gets a copy larger than it allows.
        await rejectsWith(
          fetchDocument(url, { ...options, policy: testPolicy({ maxBytes: 3 }) }),
          'too-large',
        );
      } finally {
        await cleanup();
      }
    });

    test('offline: a stale copy answers while its origin is down or failing, up to the stale limit; a 404 never', async () => {
      const away = new CountingOrigin();
      await away.start();
      away.files.set('/template.ttl', { body: 'kept template', etag: '"t1"' });
      const url = away.url('/template.ttl');
      const { stores, cleanup } = await open(LIMITS);
      let clock = 1_000_000;
      const get = () =>
        fetchDocument(url, {
          field: 'template_url',
          cache: stores.documents,
          policy: testPolicy(),
          freshMs: 1000,
          staleMs: 60_000,
          now: () => clock,
        });
      try {
        assert.equal((await get()).text(), 'kept template');
        // The origin fails on its side: the stale copy answers.
        away.files.set('/template.ttl', { body: 'kept template', etag: '"t1"', status: 503 });
        clock += 5_000;
        assert.equal((await get()).text(), 'kept template');
        // The origin is gone (connection refused): still the copy, until the stale limit.
        await away.server.close();
        clock += 30_000;
        assert.equal((await get()).text(), 'kept template');
        clock += 30_000; // 65 s past freshness: longer than the 60 s allowed
        await rejectsWith(get(), 'unreachable', 'connection refused');
      } finally {
        await cleanup();
      }
      // A 404 is the origin's answer about the document, not an outage: no stale copy.
      origin.files.set('/removed.ttl', { body: 'old', etag: '"r"' });
      const second = await open(LIMITS);
      try {
        const removed = (now: number) =>
          fetchDocument(origin.url('/removed.ttl'), {
            field: 'template_url',
            cache: second.stores.documents,
            policy: testPolicy(),
            freshMs: 1000,
            staleMs: 60_000,
            now: () => now,
          });
        assert.equal((await removed(0)).text(), 'old');
        origin.files.delete('/removed.ttl');
        await rejectsWith(removed(5_000), 'unreachable', '404');
      } finally {
        await second.cleanup();
      }
    });

    test('an error is not kept: a 404 is asked again, and the document once it is there', async () => {
      const { stores, cleanup } = await open(LIMITS);
      const get = () =>
        fetchDocument(origin.url('/later.ttl'), {
          field: 'template_url',
          cache: stores.documents,
          policy: testPolicy(),
          freshMs: 60_000,
        });
      try {
        await rejectsWith(get(), 'unreachable', '404');
        origin.files.set('/later.ttl', { body: 'now here', etag: '"l"' });
        assert.equal((await get()).text(), 'now here');
        assert.equal((await get()).text(), 'now here');
        assert.deepEqual(origin.count('/later.ttl'), { full: 1, notModified: 0 });
      } finally {
        await cleanup();
      }
    });
  });
}
