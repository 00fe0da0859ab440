// Redirects are followed by hand, counted, and every target is checked like the first URL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { guardedFetch } from '../../lib/fetch/guarded-fetch.ts';
import { rejectsWith, serve, tableResolver, testPolicy, type TestServer } from './helpers.ts';

let a: TestServer;
let b: TestServer;
let loopHits = 0;

before(async () => {
  b = await serve((req, res) => {
    res.end(`b saw ${req.headers.authorization ?? 'no authorization'}`);
  });
  a = await serve((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const redirect = (status: number, location: string): void => {
      res.statusCode = status;
      res.setHeader('location', location);
      res.end();
    };
    switch (url.pathname) {
      case '/final':
        res.end(`a saw ${req.headers.authorization ?? 'no authorization'}`);
        return;
      case '/relative':
        return redirect(302, 'final');
      case '/chain': {
        // /chain?n=2 → /chain?n=1 → /chain?n=0 → /final, each with another status code
        const n = Number(url.searchParams.get('n'));
        const statuses = [301, 303, 307, 308];
        return redirect(statuses[n % 4] ?? 302, n > 0 ? `/chain?n=${n - 1}` : '/final');
      }
      case '/loop':
        loopHits++;
        return redirect(302, '/loop');
      case '/to':
        return redirect(302, url.searchParams.get('u') ?? '/');
      case '/to-credentials':
        return redirect(302, 'http://u:pw456@127.0.0.9/');
      case '/no-location':
        res.statusCode = 302;
        res.end();
        return;
      default:
        res.statusCode = 404;
        res.end();
    }
  });
});
after(async () => {
  await a.close();
  await b.close();
});

const to = (target: string): string => `${a.origin}/to?u=${encodeURIComponent(target)}`;

test('relative and chained redirects are followed; url is the final one', async () => {
  const res = await guardedFetch(`${a.origin}/relative`, { field: 'data_url', policy: testPolicy() });
  assert.equal(res.url, `${a.origin}/final`);
  assert.equal(await res.text(), 'a saw no authorization');
  const chained = await guardedFetch(`${a.origin}/chain?n=2`, { field: 'data_url', policy: testPolicy() });
  assert.equal(chained.url, `${a.origin}/final`);
  await chained.text();
});

test('a redirect loop stops at the redirect limit with a 422', async () => {
  loopHits = 0;
  await rejectsWith(
    guardedFetch(`${a.origin}/loop`, { field: 'data_url', policy: testPolicy({ maxRedirects: 3 }) }),
    'unreachable',
    `data_url: ${a.origin}/loop could not be fetched: redirected to ${a.origin}/loop, `,
    'more than 3 redirects (LABLD_FETCH_MAX_REDIRECTS)',
  );
  assert.equal(loopHits, 4);
});

test('with a redirect limit of 0 no redirect is followed', async () => {
  await rejectsWith(
    guardedFetch(`${a.origin}/relative`, { field: 'data_url', policy: testPolicy({ maxRedirects: 0 }) }),
    'unreachable',
    'more than 0 redirects',
  );
});

test('a redirect chain within the limit passes', async () => {
  const res = await guardedFetch(`${a.origin}/chain?n=2`, {
    field: 'data_url',
    policy: testPolicy({ maxRedirects: 3 }),
  });
  await res.text();
  await rejectsWith(
    guardedFetch(`${a.origin}/chain?n=3`, { field: 'data_url', policy: testPolicy({ maxRedirects: 3 }) }),
    'unreachable',
  );
});

test('a redirect to a disallowed IP literal is refused with 403', async () => {
  await rejectsWith(
    guardedFetch(to('http://127.0.0.2/admin'), { field: 'shapes_url', policy: testPolicy() }),
    'forbidden',
    `shapes_url: ${to('http://127.0.0.2/admin')} refused: redirected to http://127.0.0.2/admin, `,
    'address 127.0.0.2 is loopback (allow it with LABLD_FETCH_ALLOW)',
  );
});

test('a redirect to a name resolving to a private address is refused with 403', async () => {
  const policy = testPolicy({ resolve: tableResolver({ 'intranet.test': ['10.1.2.3'] }) });
  await rejectsWith(
    guardedFetch(to('http://intranet.test/secret'), { field: 'data_url', policy }),
    'forbidden',
    'redirected to http://intranet.test/secret, address 10.1.2.3 is private',
  );
});

test('a redirect to the metadata service is refused', async () => {
  await rejectsWith(
    guardedFetch(to('http://169.254.169.254/latest/meta-data/'), { field: 'data_url', policy: testPolicy() }),
    'forbidden',
    'address 169.254.169.254 is a cloud metadata address',
  );
});

test('redirects to other schemes are refused with 400', async () => {
  for (const target of ['file:///etc/passwd', 'ftp://127.0.0.1/x', 'data:text/plain,hi', 'gopher://x/']) {
    await rejectsWith(
      guardedFetch(to(target), { field: 'data_url', policy: testPolicy() }),
      'malformed',
      `redirected to ${target}`,
      'is not allowed (only http and https)',
    );
  }
});

test('a redirect without Location is an upstream failure', async () => {
  await rejectsWith(
    guardedFetch(`${a.origin}/no-location`, { field: 'data_url', policy: testPolicy() }),
    'unreachable',
    'upstream answered 302',
  );
});

test('authorization is kept on the same origin and dropped on another', async () => {
  const options = { field: 'data_url', policy: testPolicy(), authorization: 'Bearer t' };
  const same = await guardedFetch(`${a.origin}/relative`, options);
  assert.equal(await same.text(), 'a saw Bearer t');
  const other = await guardedFetch(to(`${b.origin}/x`), options);
  assert.equal(await other.text(), 'b saw no authorization');
});

test('URL credentials do not follow a redirect to another origin, nor show in errors', async () => {
  const start = `http://me:pw123@127.0.0.1:${a.port}/to?u=${encodeURIComponent(`${b.origin}/x`)}`;
  const res = await guardedFetch(start, { field: 'data_url', policy: testPolicy() });
  assert.equal(await res.text(), 'b saw no authorization');
  const denied = `http://me:pw123@127.0.0.1:${a.port}/to-credentials`;
  await assert.rejects(guardedFetch(denied, { field: 'data_url', policy: testPolicy() }), (error: Error) => {
    assert.ok(!/pw123|pw456/.test(error.message), error.message);
    assert.match(error.message, /redirected to http:\/\/\*\*\*@127\.0\.0\.9\//);
    return true;
  });
});
