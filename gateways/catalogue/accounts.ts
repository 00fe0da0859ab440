// Authentication at the catalogue's edge (DESIGN §7: the gateway reads credentials): who a
// request comes from, the CSRF check of every form post, and the login and logout routes.
//
// CSRF. Every form carries `_csrf`, an HMAC (lib/catalogue/auth/sessions.ts) of the session id
// or, before a login, of the id in a `labld_csrf` pre-session cookie that the pages set for an
// anonymous visitor. A token was chosen over trusting only Origin / Sec-Fetch-Site because it
// does not depend on what a browser, an extension or a proxy sends: the login form is protected
// the same way as every other form (against login CSRF, which would sign a victim into the
// attacker's account), and a form works in any browser that keeps cookies. The headers are
// checked as well, as a second lock: a post whose Origin is another site, or whose
// Sec-Fetch-Site says cross-site or same-site, is refused whatever it carries. A request with an
// API token is exempt from the token (a script's header is no ambient credential a foreign page
// could make a browser send), not from the header check.
import type { Context } from 'koa';
import { credentialOf, resolveViewer, type Credential, type Viewer } from '../../lib/catalogue/auth/actor.ts';
import { hashPassword, needsRehash, verifyPassword } from '../../lib/catalogue/auth/passwords.ts';
import {
  clearedPreSessionCookie,
  clearedSessionCookie,
  createSession,
  csrfToken,
  newPreSessionId,
  preSessionCookie,
  preSessionIdFromCookieHeader,
  sessionCookie,
  sessionIdFromCookieHeader,
  verifyCsrfToken,
} from '../../lib/catalogue/auth/sessions.ts';
import { LoginThrottle } from '../../lib/catalogue/auth/throttle.ts';
import type { CatalogueStore } from '../../lib/catalogue/store/contract.ts';
import type { User } from '../../lib/catalogue/model.ts';
import { forbidden, isDomainError } from '../../lib/process/errors.ts';
import { clientAddress, readForm, route, tokenAccepted, type Result, type Route } from '../kit/index.ts';
import type { KitState } from '../kit/observe.ts';
import { renderLogin } from './pages/account.ts';
import { errorPage, page } from './respond.ts';
import type { PageContext } from './views.ts';

export interface AccountsOptions {
  /** The catalogue store (opened on first use by the process). */
  store: () => Promise<CatalogueStore>;
  /** The CSRF key (serverSecret under LABLD_DATA). */
  secret: () => Promise<Buffer>;
  /** labld's public URL (BASE_URL): https makes cookies Secure and `__Host-`; its origin may post forms. */
  baseUrl: string;
  throttle?: LoginThrottle;
}

export interface Accounts {
  readonly store: () => Promise<CatalogueStore>;
  readonly secret: () => Promise<Buffer>;
  readonly secure: boolean;
  readonly publicOrigin: string;
  readonly throttle: LoginThrottle;
}

export function accounts(options: AccountsOptions): Accounts {
  const url = new URL(options.baseUrl);
  return {
    store: options.store,
    secret: options.secret,
    secure: url.protocol === 'https:',
    publicOrigin: url.origin,
    throttle: options.throttle ?? new LoginThrottle(),
  };
}

/** The credential a request carries (hashes only): its API token, else its session cookie, else none. */
export function credentialOfRequest(ctx: Context, a: Accounts): Credential {
  return credentialOf(
    {
      authorization: ctx.get('authorization') || undefined,
      'x-ckan-api-key': ctx.get('x-ckan-api-key') || undefined,
      cookie: ctx.get('cookie') || undefined,
    },
    a.secure,
  );
}

/** Who a request comes from: its API token, else its session cookie, else anonymous. */
export async function viewerFromRequest(ctx: Context, a: Accounts): Promise<Viewer> {
  const credential = credentialOfRequest(ctx, a);
  return accepted(ctx, credential, await resolveViewer(await a.store(), credential));
}

/** A token that resolved to a user is counted apart by the rate limit from now on. */
function accepted(ctx: Context, credential: Credential, viewer: Viewer): Viewer {
  if (credential.kind === 'token' && viewer.user) tokenAccepted(ctx);
  return viewer;
}

/** A request as the pages see it: the viewer, the page context, and cookies to set. */
export interface Visit {
  viewer: Viewer;
  /** What the request carried, as the catalogue's actions take it (hashes only). */
  credential: Credential;
  context: PageContext;
  headers: Record<string, string>;
  /** What the forms' CSRF token is an HMAC of: the session id, or the pre-session id. */
  csrfId: string | undefined;
}

export async function visit(ctx: Context, a: Accounts): Promise<Visit> {
  const credential = credentialOfRequest(ctx, a);
  const viewer = accepted(ctx, credential, await resolveViewer(await a.store(), credential));
  const cookie = ctx.get('cookie') || undefined;
  const headers: Record<string, string> = {};
  let csrfId: string | undefined;
  if (viewer.sessionHash !== undefined) {
    csrfId = sessionIdFromCookieHeader(cookie, a.secure);
  } else if (viewer.user === undefined) {
    csrfId = preSessionIdFromCookieHeader(cookie, a.secure);
    if (csrfId === undefined) {
      csrfId = newPreSessionId();
      headers['Set-Cookie'] = preSessionCookie(csrfId, a.secure);
    }
  }
  const context: PageContext = {};
  if (viewer.user) context.user = { name: viewer.user.name, displayName: viewer.user.fullname || undefined };
  if (csrfId !== undefined) context.csrfToken = csrfToken(await a.secret(), csrfId);
  return { viewer, credential, context, headers, csrfId };
}

const CROSS_SITE = 'This form did not come from a page of this site, so it was not accepted.';
const STALE =
  'This form has expired or was not sent from this site (its security token does not match). ' +
  'Go back, reload the page and send it again; your browser must accept cookies from this site.';

/**
 * Refuses (forbidden) a form post that may have come from another site: see the top of this file.
 * `token` is the form's `_csrf` field.
 */
export async function checkForm(ctx: Context, a: Accounts, v: Visit, token: unknown): Promise<void> {
  const origin = ctx.get('origin');
  // Our own origin from the Host header (Koa 3's ctx.origin answers the Origin header itself).
  const own = `${ctx.protocol}://${ctx.host}`;
  if (origin !== '' && origin !== own && origin !== a.publicOrigin) throw forbidden(CROSS_SITE, '_csrf');
  const site = ctx.get('sec-fetch-site');
  if (site !== '' && site !== 'same-origin' && site !== 'none') throw forbidden(CROSS_SITE, '_csrf');
  if (v.viewer.user !== undefined && v.viewer.sessionHash === undefined) return; // an API token
  const secret = await a.secret();
  if (v.csrfId === undefined || typeof token !== 'string' || !verifyCsrfToken(secret, v.csrfId, token)) {
    throw forbidden(STALE, '_csrf');
  }
}

/** `next` when it is a path on this site; anything else (another host, `//x`, `/\x`, controls) is dropped. */
export function safeNext(next: unknown): string | undefined {
  if (typeof next !== 'string' || next.length > 2000) return undefined;
  // Browsers drop tabs and line breaks inside URLs, so `/\t/evil.example` would become `//evil…`.
  const plain = [...next].every((c) => c.charCodeAt(0) > 0x1f && c !== '\u007f' && c !== '\\');
  return plain && /^\/(?!\/)/.test(next) ? next : undefined;
}

// A login form is a name, a password (at most 1024 characters) and a path: far below this.
const FORM_LIMIT = 16 * 1024;
const WRONG = 'The user name or the password is wrong.';

/** A form post: read, checked against CSRF, then `work`; a refusal is a page with its status. */
export async function formPost(
  ctx: Context,
  a: Accounts,
  work: (v: Visit, form: Record<string, string>) => Promise<Result>,
  limit = FORM_LIMIT,
): Promise<Result> {
  const v = await visit(ctx, a);
  let form: Record<string, string>;
  try {
    form = await readForm(ctx, limit);
    await checkForm(ctx, a, v, form._csrf);
  } catch (error) {
    return errorPage(ctx, v.context, error);
  }
  return work(v, form);
}

async function logIn(ctx: Context, a: Accounts, v: Visit, form: Record<string, string>): Promise<Result> {
  const username = (form.username ?? '').trim();
  const password = form.password ?? '';
  const next = safeNext(form.next);
  const again = (status: number, error: string, headers: Record<string, string> = {}): Result =>
    page(
      renderLogin(v.context, { next, username: username.slice(0, 200), error }),
      { ...v.headers, ...headers },
      status,
    );
  if (username === '' || password === '') return again(400, 'Enter your user name and your password.');

  const checked = await checkPassword(ctx, a, username, password);
  if ('waitMs' in checked) {
    const seconds = Math.ceil(checked.waitMs / 1000);
    return again(429, `Too many failed logins. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`, {
      'Retry-After': String(seconds),
    });
  }
  const user = checked.user;
  if (!user) return again(401, WRONG);
  const store = await a.store();
  // A new id at every login (never the one the browser came with: no session fixation).
  if (v.viewer.sessionHash !== undefined) await store.deleteSession(v.viewer.sessionHash);
  const session = createSession();
  await store.createSession({
    user_id: user.id,
    session_hash: session.hash,
    expires: session.expiresAt.toISOString(),
  });
  await store.deleteExpiredSessions();
  ctx.append('Set-Cookie', sessionCookie({ id: session.id, secure: a.secure, expiresAt: session.expiresAt }));
  ctx.append('Set-Cookie', clearedPreSessionCookie(a.secure));
  return { redirect: next ?? '/' };
}

/**
 * A user name and password checked as the login form checks them (also HTTP Basic on the SPARQL
 * endpoints): the user, `undefined` when they are wrong, or how long the throttle keeps this
 * name at this address, or the address, closed.
 */
export async function checkPassword(
  ctx: Context,
  a: Accounts,
  username: string,
  password: string,
): Promise<{ user: User | undefined } | { waitMs: number }> {
  const address = clientAddress(ctx);
  const wait = a.throttle.waitMs(username, address);
  if (wait > 0) return { waitMs: wait };
  const store = await a.store();
  // Only by name: a user's id is not a login name.
  const found = username.length <= 200 ? await store.getUser(username) : undefined;
  const user = found?.name === username ? found : undefined;
  // verifyPassword costs one hash even without a user, so timing does not tell names apart.
  const ok = await verifyPassword(password, user?.password_hash ?? undefined);
  if (!ok || !user || user.password_hash === null) {
    a.throttle.failed(username, address);
    (ctx.state as KitState).log.info({ address }, 'login failed');
    return { user: undefined };
  }
  a.throttle.succeeded(username, address);
  if (needsRehash(user.password_hash)) await rehash(store, user.id, password);
  return { user };
}

async function rehash(store: CatalogueStore, userId: string, password: string): Promise<void> {
  try {
    await store.updateUser(userId, { password_hash: await hashPassword(password) });
  } catch (error) {
    // A password from before the policy (too short) keeps its old hash rather than block the login.
    if (!isDomainError(error) || error.kind !== 'invalid') throw error;
  }
}

async function logOut(ctx: Context, a: Accounts, v: Visit): Promise<Result> {
  if (v.viewer.sessionHash !== undefined) await (await a.store()).deleteSession(v.viewer.sessionHash);
  ctx.append('Set-Cookie', clearedSessionCookie(a.secure));
  return { redirect: '/' };
}

const FORM_POST = {
  303: { description: 'Done: to `next` (login) or `/`' },
  400: { description: 'A field is missing (the login page again)' },
  401: { description: 'Wrong user name or password (the login page again)' },
  403: { description: 'The CSRF token or the Origin does not fit: a page saying so' },
  429: {
    description: 'Too many failed logins for this name from this address, or from this address (Retry-After)',
  },
};

export function accountRoutes(a: Accounts): Route[] {
  return [
    route({
      method: 'POST',
      path: '/user/login',
      summary: 'Log in (form: `username`, `password`, `next`, `_csrf`); sets the session cookie',
      description:
        'An `application/x-www-form-urlencoded` form. Failed attempts are counted per name at an address ' +
        'and per address; past a few, each further one closes that name there, or that address, for a ' +
        'doubling delay (429). The same name from another address is not held up.',
      responses: FORM_POST,
      handler: (_input, ctx) => formPost(ctx, a, (v, form) => logIn(ctx, a, v, form)),
    }),
    route({
      method: 'POST',
      path: '/user/logout',
      summary: 'Log out (form: `_csrf`): ends the session and clears its cookie',
      responses: { 303: FORM_POST[303], 403: FORM_POST[403] },
      handler: (_input, ctx) => formPost(ctx, a, (v) => logOut(ctx, a, v)),
    }),
  ];
}
