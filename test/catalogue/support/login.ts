// A browser's part in logging in, over plain HTTP: fetch the login form (its pre-session cookie
// and CSRF token), post it, keep the cookies. For the tests of the login, the CLI and the pages.

/** Cookies as a browser keeps them: name → value, updated from each answer's Set-Cookie. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

/** The value of the `_csrf` field of the first form on a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('the page has no CSRF field');
  return match[1]!;
}

/** GET a page with the jar's cookies, keeping what it sets; the HTML. */
export async function getPage(url: string, jar: CookieJar): Promise<{ status: number; html: string }> {
  const response = await fetch(url, { headers: { cookie: jar.header(), accept: 'text/html' } });
  jar.take(response);
  return { status: response.status, html: await response.text() };
}

/** POST a urlencoded form as a browser on the same origin would, without following redirects. */
export async function postForm(
  url: string,
  jar: CookieJar,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: jar.header(),
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(url).origin,
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
  jar.take(response);
  return response;
}

/** Logs in through the form; the answer of the post (303 on success) and the jar holding the session. */
export async function logIn(
  base: string,
  username: string,
  password: string,
  jar = new CookieJar(),
): Promise<{ response: Response; jar: CookieJar }> {
  const form = await getPage(`${base}/user/login`, jar);
  const response = await postForm(`${base}/user/login`, jar, {
    _csrf: csrfOf(form.html),
    username,
    password,
  });
  return { response, jar };
}

/** A cookie jar per name, each logged in with `password`; `anonymous` gets an empty jar. */
export async function jarsOf<W extends string>(
  base: string,
  names: readonly W[],
  password: string,
): Promise<Map<W, CookieJar>> {
  const jars = new Map<W, CookieJar>();
  for (const who of names) {
    if (who === 'anonymous') jars.set(who, new CookieJar());
    else {
      const { response, jar } = await logIn(base, who, password);
      if (response.status !== 303) throw new Error(`${who} could not log in: ${response.status}`);
      jars.set(who, jar);
    }
  }
  return jars;
}
