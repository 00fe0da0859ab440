// The shared stores in a whole labld (gateways, worker pool, catalogue consumer): 100 createrdf
// requests against one template fetch it once across the workers; LABLD_RATE_LIMIT answers 429
// with Retry-After; a retried upload with the same Idempotency-Key makes one resource. Run with
// LABLD_REDIS_URL unset (labld.e2e.test.ts) and set (labld.redis.ts): the same answers.
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { setEnv } from '../support/env.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { readSeed } from '../support/shared.ts';
import { api, person, type Person } from '../catalogue/actions/support.ts';
import { CSVW_MAPPING_URL, DESCRIPTOR_URL, SEED_FILES, TEMPLATE_URL } from '../converter/support.ts';
import { CountingOrigin } from './origin.ts';
import { hashPassword } from '../../lib/catalogue/auth/passwords.ts';
import { csrfOf, getPage, logIn, postForm } from '../catalogue/support/login.ts';

const PASSWORD = 'a long password for the upload page';

export function labldSuite(name: string, env: () => Record<string, string | undefined>): void {
  describe(`shared stores in labld: ${name}`, () => {
    let labld: Running & { dataDir: string };
    let alice: Person;
    let bob: Person;
    let restore: () => void;
    const origin = new CountingOrigin();

    before(async () => {
      restore = setEnv({
        ...env(),
        LABLD_FETCH_ALLOW: '127.0.0.0/8',
        LABLD_FETCH_CACHE_FRESH_S: '600',
      });
      await origin.start();
      labld = await startLabld();
      const store = await openCatalogueStore({ dataDir: labld.dataDir });
      alice = await person(store, 'alice');
      bob = await person(store, 'bob');
      await store.createUser({ name: 'ada', password_hash: await hashPassword(PASSWORD) });
      await store.close();
    });
    after(async () => {
      await labld?.stop();
      await origin.server?.close();
      restore?.();
    });

    const as = (who: Person) => ({ authorization: who.token });

    test('100 createrdf requests against one template URL: the origin sends the template once', async () => {
      const templateUrl = origin.url('/template.ttl');
      const dataUrl = origin.url('/example-metadata.json');
      origin.files.set('/template.ttl', { body: readSeed(SEED_FILES[TEMPLATE_URL]!), etag: '"t1"' });
      origin.files.set('/example-metadata.json', { body: readSeed(SEED_FILES[DESCRIPTOR_URL]!) });
      origin.files.set('/map.yaml', {
        body: readSeed(SEED_FILES[CSVW_MAPPING_URL]!)
          .replaceAll(TEMPLATE_URL, templateUrl)
          .replaceAll(DESCRIPTOR_URL, dataUrl),
      });
      const convert = async () => {
        const response = await fetch(`${labld.url}/converter/api/createrdf`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ mapping_url: origin.url('/map.yaml'), data_url: dataUrl }),
        });
        assert.equal(response.status, 200, await response.clone().text());
        const body = (await response.json()) as { num_mappings_applied: number };
        assert.equal(body.num_mappings_applied, 7);
      };
      // The first alone: misses at the same moment in two workers (or processes) may each fetch.
      await convert();
      for (let round = 0; round < 9; round += 1) await Promise.all(Array.from({ length: 11 }, convert));
      assert.deepEqual(origin.count('/template.ttl'), { full: 1, notModified: 0 });
      assert.deepEqual(origin.count('/map.yaml'), { full: 1, notModified: 0 });
      assert.deepEqual(origin.count('/example-metadata.json'), { full: 100, notModified: 0 });
    });

    test('/readyz checks Redis when LABLD_REDIS_URL names one', async () => {
      const ready = (await (await fetch(`${labld.url}/readyz`)).json()) as { checks: Record<string, string> };
      const expected = env().LABLD_REDIS_URL ? 'ok' : undefined;
      assert.equal(ready.checks.redis, expected);
    });

    test('LABLD_RATE_LIMIT: the sixth request of an address is a 429, a new made-up token each time or not', async () => {
      const back = setEnv({ LABLD_RATE_LIMIT: '5' });
      const limited = await startLabld();
      back();
      const store = await openCatalogueStore({ dataDir: limited.dataDir });
      const carol = await person(store, 'carol');
      await store.close();
      // Addresses the limit has not seen (Redis may remember an earlier run's): loopback has 2^24.
      const address = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
      const caller = address();
      const madeUp = () => ({ authorization: `Bearer labld_${randomBytes(24).toString('base64url')}` });
      try {
        // Carol's token, accepted once (the address's first request), is counted apart from then on.
        const accepted = await getFrom(caller, `${limited.url}/api/3/action/package_list`, as(carol));
        assert.equal(accepted.status, 200);
        const statuses = [];
        for (let i = 0; i < 5; i += 1) {
          statuses.push(
            (await getFrom(caller, `${limited.url}/converter/api/openapi.json`, madeUp())).status,
          );
        }
        assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
        const refused = await getFrom(caller, `${limited.url}/api/3/action/package_list`, madeUp());
        assert.equal(refused.status, 429);
        assert.ok(Number(refused.headers['retry-after']) >= 59);
        assert.match(
          (JSON.parse(refused.body) as { error: { message: string } }).error.message,
          /from this address \(LABLD_RATE_LIMIT\)/,
        );
        // Carol's token, and another address, are not held back.
        assert.equal(
          (await getFrom(caller, `${limited.url}/api/3/action/package_list`, as(carol))).status,
          200,
        );
        assert.equal((await getFrom(address(), `${limited.url}/converter/api/openapi.json`, {})).status, 200);
      } finally {
        await limited.stop();
      }
    });

    test('Idempotency-Key: a retried upload makes one resource and answers the same; another body is a 409', async () => {
      const dataset = `idem-${randomBytes(4).toString('hex')}`;
      assert.equal(
        (await api(labld.url, 'package_create', { body: { name: dataset }, headers: as(alice) })).status,
        200,
      );
      const upload = (text: string, key: string, who = alice, packageId = dataset) => {
        const form = new FormData();
        form.set('package_id', packageId);
        form.set('upload', new Blob([text], { type: 'application/octet-stream' }), 'forces.dat');
        return api(labld.url, 'resource_create', { form, headers: { ...as(who), 'Idempotency-Key': key } });
      };
      const first = await upload('sample,force\na,1\n', 'key-1');
      assert.equal(first.status, 200);
      const again = await upload('sample,force\na,1\n', 'key-1');
      assert.equal(again.status, 200);
      assert.deepEqual(again.body.result, first.body.result);
      const other = await upload('sample,force\nb,2\n', 'key-1');
      assert.equal(other.status, 409);
      assert.equal(other.body.error.__type, 'Validation Error');
      assert.match(other.body.error['Idempotency-Key'][0], /used for another request/);
      // Another key is another upload; a key that is not one is refused naming the header.
      assert.equal((await upload('sample,force\na,1\n', 'key-2')).status, 200);
      const bad = await upload('sample,force\na,1\n', 'x'.repeat(256));
      assert.equal(bad.status, 409);
      assert.ok(bad.body.error['Idempotency-Key']);
      // Concurrent retries of one upload: one resource; each retry waits for the first and answers it.
      const racing = await Promise.all(Array.from({ length: 5 }, () => upload('race\n1\n', 'key-3')));
      assert.deepEqual(
        racing.map((r) => r.status),
        [200, 200, 200, 200, 200],
      );
      assert.ok(racing.every((r) => r.body.result.id === racing[0]!.body.result.id));
      const shown = await api(labld.url, 'package_show', { query: { id: dataset }, headers: as(alice) });
      // A .dat file starts no chain (a CSV would, and its outputs are resources too).
      assert.equal(shown.body.result.resources.length, 3, 'key-1, key-2 and key-3 made one resource each');
      // The same key from another caller on another dataset is that caller's own.
      const bobs = `idem-bob-${randomBytes(4).toString('hex')}`;
      await api(labld.url, 'package_create', { body: { name: bobs }, headers: as(bob) });
      const bobsUpload = await upload('sample,force\na,1\n', 'key-1', bob, bobs);
      assert.equal(bobsUpload.status, 200);
      assert.notEqual(bobsUpload.body.result.id, first.body.result.id);
    });

    test('the upload page: the same form sent twice makes one resource and leads to it both times', async () => {
      const { jar } = await logIn(labld.url, 'ada', PASSWORD);
      const dataset = `page-${randomBytes(4).toString('hex')}`;
      const page = await getPage(`${labld.url}/dataset/new`, jar);
      const made = await postForm(`${labld.url}/dataset/new`, jar, {
        _csrf: csrfOf(page.html),
        name: dataset,
        title: dataset,
      });
      assert.equal(made.status, 303);
      const form = await getPage(`${labld.url}/dataset/${dataset}/upload`, jar);
      const key = /name="_idempotency" value="([^"]+)"/.exec(form.html)?.[1];
      assert.ok(key, 'the form carries a key of its own');
      const send = () => {
        const body = new FormData();
        body.set('_csrf', csrfOf(form.html));
        body.set('_idempotency', key);
        body.set('file', new Blob(['a,b\n1,2\n']), 'twice.dat');
        return fetch(`${labld.url}/dataset/${dataset}/upload`, {
          method: 'POST',
          body,
          redirect: 'manual',
          headers: { cookie: jar.header(), origin: labld.url, accept: 'text/html' },
        });
      };
      const [first, second] = [await send(), await send()];
      assert.deepEqual([first.status, second.status], [303, 303]);
      assert.equal(second.headers.get('location'), first.headers.get('location'));
      const mine = await getPage(`${labld.url}/dataset/${dataset}`, jar);
      assert.equal(mine.html.match(/>twice\.dat<\/a>/g)?.length, 1);
      // Another form shown is another key: a second upload of the same file is a second resource.
      const again = await getPage(`${labld.url}/dataset/${dataset}/upload`, jar);
      assert.notEqual(/name="_idempotency" value="([^"]+)"/.exec(again.html)?.[1], key);
    });
  });
}

/** A GET sent from `localAddress` (a loopback address of its own: a caller the rate limit counts apart). */
function getFrom(
  localAddress: string,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, localAddress, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
