// Login, logout and CSRF at the catalogue gateway, over HTTP, on a whole labld with a seeded
// catalogue (its login throttle on a clock the test steps): cookies and their flags, one message for a wrong name or password, the throttle, CSRF on
// every form post (missing or foreign token, cross-site Origin), and the session's end.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from '../support/fc.ts';
import { hashSessionId } from '../../lib/catalogue/auth/sessions.ts';
import { hashPassword, SCRYPT_DEFAULTS } from '../../lib/catalogue/auth/passwords.ts';
import { createToken } from '../../lib/catalogue/auth/tokens.ts';
import { LoginThrottle } from '../../lib/catalogue/auth/throttle.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import type { CatalogueStore } from '../../lib/catalogue/store/contract.ts';
import { api } from './actions/support.ts';
import { startSeededLabld, type SeededLabld } from './support/seed.ts';
import { CookieJar, csrfOf, getPage, logIn, postForm } from './support/login.ts';
import { setEnv } from '../support/env.ts';

const PASSWORD = 'a long enough password';
let clock = Date.now();
let catalogue: SeededLabld & { store: CatalogueStore };

before(async () => {
  const labld = await startSeededLabld({
    users: { ada: PASSWORD, bob: 'bob has a password too', eve: 'eve has a password too' },
    loginThrottle: new LoginThrottle({ now: () => clock }),
  });
  // The store beside the running labld, as `labld user` opens it: to look at what was stored.
  catalogue = { ...labld, store: await openCatalogueStore({ dataDir: labld.dataDir }) };
});
after(async () => {
  await catalogue?.store.close();
  await catalogue?.stop();
});

const url = (path: string) => `${catalogue.url}${path}`;

function setCookie(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

describe('login', () => {
  test('the login page sets an HttpOnly, SameSite=Lax pre-session cookie and carries a CSRF token', async () => {
    const response = await fetch(url('/user/login'), { headers: { accept: 'text/html' } });
    assert.equal(response.status, 200);
    const cookie = setCookie(response, 'labld_csrf');
    assert.match(cookie ?? '', /^labld_csrf=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    assert.match(await response.text(), /<input type="hidden" name="_csrf" value="[A-Za-z0-9_-]{43}">/);
  });

  test('the right password: 303 to `next`, a session cookie (HttpOnly, SameSite=Lax, Path=/), only its hash stored', async () => {
    const jar = new CookieJar();
    const form = await getPage(url('/user/login?next=/dataset/plate-reader-01'), jar);
    assert.match(form.html, /name="next" value="\/dataset\/plate-reader-01"/);
    const response = await postForm(url('/user/login'), jar, {
      _csrf: csrfOf(form.html),
      username: 'ada',
      password: PASSWORD,
      next: '/dataset/plate-reader-01',
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/dataset/plate-reader-01');
    const session = setCookie(response, 'labld_session') ?? '';
    assert.match(session, /^labld_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    // Seven days, less the moments between the session's start and the answer (none, on a quick run).
    const maxAge = Number(/Max-Age=(\d+)/.exec(session)![1]);
    assert.ok(maxAge <= 7 * 24 * 3600 && maxAge > 7 * 24 * 3600 - 60, `Max-Age ${maxAge}`);
    assert.doesNotMatch(session, /Secure/, 'plain http: not Secure');
    assert.match(setCookie(response, 'labld_csrf') ?? '', /^labld_csrf=; Path=\/; Max-Age=0/);
    const id = jar.cookies.get('labld_session')!;
    const stored = await catalogue.store.findLiveSession(hashSessionId(id));
    assert.equal(stored?.user_id, (await catalogue.store.getUser('ada'))?.id);
    assert.equal(await catalogue.store.findLiveSession(id), undefined, 'the id itself is not a key');
    const page = await getPage(url('/dataset'), jar);
    assert.match(page.html, /Signed in as <strong>ada<\/strong>/);
  });

  test('`next` that leaves the site is dropped: the login goes to /', async () => {
    for (const next of [
      '//evil.example/x',
      '/\\evil.example',
      '/\t/evil.example',
      'https://evil.example/',
      'x',
    ]) {
      const jar = new CookieJar();
      const form = await getPage(url('/user/login'), jar);
      const response = await postForm(url('/user/login'), jar, {
        _csrf: csrfOf(form.html),
        username: 'bob',
        password: 'bob has a password too',
        next,
      });
      assert.equal(response.status, 303, JSON.stringify(next));
      assert.equal(response.headers.get('location'), '/', JSON.stringify(next));
    }
  });

  test('a wrong password and an unknown name get the same 401 page, which does not say which was wrong', async () => {
    const pages: string[] = [];
    for (const [username, password] of [
      ['ada', 'not the password at all'],
      ['nobody', PASSWORD],
    ]) {
      const jar = new CookieJar();
      const form = await getPage(url('/user/login'), jar);
      const response = await postForm(url('/user/login'), jar, {
        _csrf: csrfOf(form.html),
        username: username!,
        password: password!,
      });
      assert.equal(response.status, 401);
      assert.equal(setCookie(response, 'labld_session'), undefined);
      const html = await response.text();
      assert.match(html, /<p class="error" role="alert">The user name or the password is wrong\.<\/p>/);
      assert.doesNotMatch(html, new RegExp(password!), 'the password is not echoed');
      assert.match(html, new RegExp(`value="${username}"`), 'the name is kept');
      pages.push(html.replaceAll(username!, 'NAME').replace(/value="[A-Za-z0-9_-]{43}"/, ''));
    }
    assert.equal(pages[0], pages[1]);
  });

  test('a user id is not a login name', async () => {
    const ada = await catalogue.store.getUser('ada');
    const { response } = await logIn(catalogue.url, ada!.id, PASSWORD);
    assert.equal(response.status, 401);
  });

  test('past five failures a name is closed for a doubling delay (429, Retry-After), even for the right password', async () => {
    for (let i = 0; i < 6; i++) {
      const { response } = await logIn(catalogue.url, 'eve', 'a wrong password here');
      assert.equal(response.status, 401, `attempt ${i + 1}`);
    }
    const closed = await logIn(catalogue.url, 'eve', 'eve has a password too');
    assert.equal(closed.response.status, 429);
    assert.equal(closed.response.headers.get('retry-after'), '1');
    assert.match(await closed.response.text(), /Too many failed logins\. Try again in 1 second\./);
    assert.equal(setCookie(closed.response, 'labld_session'), undefined);
    clock += 1000;
    const open = await logIn(catalogue.url, 'eve', 'eve has a password too');
    assert.equal(open.response.status, 303);
  });

  /** A login through a reverse proxy that says the client is `address` (X-Forwarded-For). */
  async function logInVia(address: string, username: string, password: string): Promise<Response> {
    const jar = new CookieJar();
    const form = await getPage(url('/user/login'), jar);
    const fields = { _csrf: csrfOf(form.html), username, password };
    return postForm(url('/user/login'), jar, fields, { 'x-forwarded-for': address });
  }

  test('guesses at a name from one address close it there only: the user logs in from another (LABLD_TRUSTED_PROXIES=1)', async () => {
    const restore = setEnv({ LABLD_TRUSTED_PROXIES: '1' });
    try {
      for (let i = 0; i < 6; i++) {
        const guess = await logInVia('203.0.113.9', 'bob', 'a wrong password here');
        assert.equal(guess.status, 401, `attempt ${i + 1}`);
      }
      const held = await logInVia('203.0.113.9', 'bob', 'bob has a password too');
      assert.equal(held.status, 429, "the guesser's address is held up, even with the right password");
      const user = await logInVia('198.51.100.7', 'bob', 'bob has a password too');
      assert.equal(user.status, 303, 'the user from another address is not');
    } finally {
      restore();
      clock += 20 * 60_000; // forgotten: the next tests start without these counts
    }
  });

  test('X-Forwarded-For is not trusted by default: a guesser that changes it is counted at its own address', async () => {
    for (let i = 0; i < 6; i++) {
      const guess = await logInVia(`192.0.2.${i}`, 'mallet', 'a wrong password here');
      assert.equal(guess.status, 401, `attempt ${i + 1}`);
    }
    assert.equal((await logInVia('192.0.2.99', 'mallet', 'a wrong password here')).status, 429);
    clock += 20 * 60_000;
  });

  test('an empty field is a 400 login page asking for both', async () => {
    const jar = new CookieJar();
    const form = await getPage(url('/user/login'), jar);
    const response = await postForm(url('/user/login'), jar, { _csrf: csrfOf(form.html), username: 'ada' });
    assert.equal(response.status, 400);
    assert.match(await response.text(), /Enter your user name and your password\./);
  });

  test('a hash made with weaker scrypt parameters is replaced at login', async () => {
    const weak = await hashPassword('an old password, weakly hashed', { N: 2 ** 12, r: 8, p: 1 });
    await catalogue.store.createUser({ name: 'old-timer', password_hash: weak });
    const { response } = await logIn(catalogue.url, 'old-timer', 'an old password, weakly hashed');
    assert.equal(response.status, 303);
    const stored = (await catalogue.store.getUser('old-timer'))?.password_hash ?? '';
    assert.match(stored, new RegExp(`^scrypt\\$${SCRYPT_DEFAULTS.N}\\$`));
  });
});

describe('CSRF', () => {
  async function freshForm(): Promise<{ jar: CookieJar; token: string }> {
    const jar = new CookieJar();
    return { jar, token: csrfOf((await getPage(url('/user/login'), jar)).html) };
  }
  const login = { username: 'ada', password: PASSWORD };

  test('a login post without the token, or with another browser’s, is a 403 page in words', async () => {
    const { jar } = await freshForm();
    const missing = await postForm(url('/user/login'), jar, login);
    assert.equal(missing.status, 403);
    const html = await missing.text();
    assert.match(html, /<h1>Not allowed<\/h1>/);
    assert.match(html, /This form has expired or was not sent from this site/);
    assert.equal(setCookie(missing, 'labld_session'), undefined);
    const other = await freshForm();
    const foreign = await postForm(url('/user/login'), jar, { ...login, _csrf: other.token });
    assert.equal(foreign.status, 403);
    const noCookie = await postForm(url('/user/login'), new CookieJar(), { ...login, _csrf: other.token });
    assert.equal(noCookie.status, 403);
  });

  test('a cross-site Origin or Sec-Fetch-Site is refused even with a valid token', async () => {
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of crossSite) {
      const { jar, token } = await freshForm();
      const response = await postForm(url('/user/login'), jar, { ...login, _csrf: token }, headers);
      assert.equal(response.status, 403, JSON.stringify(headers));
      assert.match(await response.text(), /did not come from a page of this site/);
    }
    const { jar, token } = await freshForm();
    const sameOrigin = await postForm(
      url('/user/login'),
      jar,
      { ...login, _csrf: token },
      {
        'sec-fetch-site': 'same-origin',
      },
    );
    assert.equal(sameOrigin.status, 303);
  });

  test('an API client is told in JSON', async () => {
    const response = await fetch(url('/user/logout'), {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    assert.equal(response.status, 403);
    assert.match(((await response.json()) as { detail: string }).detail, /^_csrf: This form has expired/);
  });

  test('the upload form needs the token of the session: without it 403 and nothing is stored', async () => {
    const { jar } = await logIn(catalogue.url, 'ada', PASSWORD);
    // The uploads only: the chain adds derived resources (a descriptor, …) in its own time.
    const resources = async () =>
      (
        (await api(catalogue.url, 'package_show', { query: { id: 'plate-reader-01' } })).body.result
          .resources as { name: string }[]
      ).filter((resource) => resource.name === 'small.csv').length;
    const uploads = await resources();
    const post = (fields: Record<string, string>) => {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.set(k, v);
      body.set('file', new Blob(['a,b\n1,2\n']), 'small.csv');
      return fetch(url('/dataset/plate-reader-01/upload'), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), accept: 'text/html' },
        body,
      });
    };
    assert.equal((await post({})).status, 403);
    assert.equal((await post({ _csrf: 'forged' })).status, 403);
    assert.equal(await resources(), uploads);
    const page = await getPage(url('/dataset/plate-reader-01/upload'), jar);
    const ok = await post({ _csrf: csrfOf(page.html) });
    assert.equal(ok.status, 303);
    assert.equal(await resources(), uploads + 1);
  });
});

describe('logout', () => {
  test('ends the session: the row is gone, the cookie cleared, the old cookie logs in no more', async () => {
    const { jar } = await logIn(catalogue.url, 'ada', PASSWORD);
    const id = jar.cookies.get('labld_session')!;
    const old = jar.header();
    const page = await getPage(url('/dataset'), jar);
    // The token is bound to the session now; a pre-session token no longer serves.
    const refused = await postForm(url('/user/logout'), jar, { _csrf: 'x'.repeat(43) });
    assert.equal(refused.status, 403);
    const response = await postForm(url('/user/logout'), jar, { _csrf: csrfOf(page.html) });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/');
    assert.match(
      setCookie(response, 'labld_session') ?? '',
      /^labld_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/,
    );
    assert.equal(await catalogue.store.findLiveSession(hashSessionId(id)), undefined);
    const after = await fetch(url('/dataset'), { headers: { cookie: old, accept: 'text/html' } });
    const html = await after.text();
    assert.doesNotMatch(html, /Signed in as/);
    assert.match(html, /<a class="account" href="\/user\/login">Log in<\/a>/);
  });

  test('an API token in the Authorization header is a viewer of the pages, and needs no CSRF token', async () => {
    const ada = await catalogue.store.getUser('ada');
    const made = createToken();
    await catalogue.store.createToken({ user_id: ada!.id, name: 'pages', token_hash: made.hash });
    const page = await fetch(url('/dataset'), {
      headers: { authorization: made.token, accept: 'text/html' },
    });
    assert.match(await page.text(), /Signed in as <strong>ada<\/strong>/);
    const bad = await fetch(url('/dataset'), {
      headers: { authorization: 'labld_nonsense', accept: 'text/html' },
    });
    assert.equal(bad.status, 401);
  });
});

describe('the login form body, property-based', () => {
  test('any fields, any values: a 4xx page or a 303, never a 5xx', async () => {
    const jar = new CookieJar();
    const token = csrfOf((await getPage(url('/user/login'), jar)).html);
    const field = fc.oneof(
      fc.constantFrom('username', 'password', 'next', '_csrf', '__proto__', 'constructor'),
      fc.string({ maxLength: 12 }),
    );
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ maxLength: 40, unit: 'grapheme' }),
      fc.constantFrom('ada', PASSWORD, token, '//evil.example', '/dataset', 'x'.repeat(3000)),
    );
    const body = fc.oneof(
      fc
        .array(fc.tuple(field, value), { maxLength: 6 })
        .map((pairs) => new URLSearchParams(pairs).toString()),
      fc.string({ maxLength: 200 }),
    );
    const type = fc.constantFrom(
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=utf-8',
      'application/json',
      'text/plain',
      'multipart/form-data; boundary=x',
    );
    await fc.assert(
      fc.asyncProperty(body, type, fc.boolean(), async (text, contentType, withCookie) => {
        clock += 10 * 60_000; // the throttle must not be what answers every run
        const response = await fetch(url('/user/login'), {
          method: 'POST',
          redirect: 'manual',
          headers: {
            accept: 'text/html',
            'content-type': contentType,
            ...(withCookie ? { cookie: jar.header() } : {}),
          },
          body: text,
        });
        await response.arrayBuffer();
        assert.ok(
          response.status === 303 || (response.status >= 400 && response.status < 500),
          `${response.status} for ${contentType} ${JSON.stringify(text).slice(0, 200)}`,
        );
        if (response.status === 303) assert.ok(response.headers.get('location')?.startsWith('/'));
      }),
      { numRuns: 80 },
    );
  });
});
