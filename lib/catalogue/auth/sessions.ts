// Browser sessions and CSRF tokens, as plain values: the gateway sets and reads the cookie, the
// store keeps the session's hash and expiry.
//
// The cookie is HttpOnly (scripts cannot read it), Secure when the site is served over https
// (then also named with the `__Host-` prefix, which pins it to this host and path /), and
// SameSite=Lax. Lax rather than Strict: with Strict a person following a link to a dataset from
// mail or a chat arrives logged out and sees "not found" for a private dataset; Lax still keeps
// the cookie off cross-site POSTs, and every form carries a CSRF token besides. Lax relies on
// GET changing nothing, which holds for the catalogue's pages.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { constantTimeEqual } from './tokens.ts';

export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const SESSION_BYTES = 32;
const SESSION_ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface NewSession {
  /** The cookie's value: never stored. */
  readonly id: string;
  /** What the store keeps, so a copy of the database (a backup) holds no live session. */
  readonly hash: string;
  readonly expiresAt: Date;
}

export function createSession(now: Date = new Date(), ttlMs: number = SESSION_TTL_MS): NewSession {
  const id = randomBytes(SESSION_BYTES).toString('base64url');
  return { id, hash: hashSessionId(id), expiresAt: new Date(now.getTime() + ttlMs) };
}

export function hashSessionId(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}

export function isSessionLive(session: { readonly expiresAt: Date }, now: Date = new Date()): boolean {
  return now.getTime() < session.expiresAt.getTime();
}

export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-labld_session' : 'labld_session';
}

export interface SessionCookie {
  readonly id: string;
  readonly secure: boolean;
  readonly expiresAt: Date;
  readonly now?: Date;
}

/** The `Set-Cookie` value that starts a session. */
export function sessionCookie({ id, secure, expiresAt, now = new Date() }: SessionCookie): string {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
  return serializeCookie(sessionCookieName(secure), id, { maxAge, secure });
}

/** The `Set-Cookie` value that ends one (logout). */
export function clearedSessionCookie(secure: boolean): string {
  return serializeCookie(sessionCookieName(secure), '', { maxAge: 0, secure });
}

/** Before a login there is no session to bind a form's CSRF token to; this cookie's id stands in. */
export function preSessionCookieName(secure: boolean): string {
  return secure ? '__Host-labld_csrf' : 'labld_csrf';
}

/** A fresh id for the pre-session cookie (the same shape as a session id). */
export function newPreSessionId(): string {
  return randomBytes(SESSION_BYTES).toString('base64url');
}

/** The pre-session cookie: no Max-Age, so it ends with the browser; it grants nothing by itself. */
export function preSessionCookie(id: string, secure: boolean): string {
  return serializeCookie(preSessionCookieName(secure), id, { secure });
}

export function clearedPreSessionCookie(secure: boolean): string {
  return serializeCookie(preSessionCookieName(secure), '', { maxAge: 0, secure });
}

export function preSessionIdFromCookieHeader(
  header: string | undefined,
  secure: boolean,
): string | undefined {
  return idFromCookie(header, preSessionCookieName(secure));
}

function serializeCookie(
  name: string,
  value: string,
  { maxAge, secure }: { maxAge?: number; secure: boolean },
): string {
  const attributes = [`${name}=${value}`, 'Path=/'];
  if (maxAge !== undefined) attributes.push(`Max-Age=${maxAge}`);
  attributes.push('HttpOnly', 'SameSite=Lax');
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}

const MAX_COOKIE_HEADER = 8192;

/**
 * The cookies of a `Cookie` header by name; the first of a repeated name wins (browsers send the
 * most specific first). Values stay as sent: labld's own are base64url.
 */
export function parseCookieHeader(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header || header.length > MAX_COOKIE_HEADER) return cookies;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (name && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

/** The session id a request's `Cookie` header carries, if it carries a well-formed one. */
export function sessionIdFromCookieHeader(header: string | undefined, secure: boolean): string | undefined {
  return idFromCookie(header, sessionCookieName(secure));
}

function idFromCookie(header: string | undefined, name: string): string | undefined {
  const id = parseCookieHeader(header).get(name);
  return id !== undefined && SESSION_ID_SHAPE.test(id) ? id : undefined;
}

// CSRF: the token is an HMAC of the session id under a server secret, so it is bound to the
// session (useless with any other), needs no storage, and ends when the session ends. The secret
// comes from secrets.ts (a file under LABLD_DATA), so tokens survive a restart.
const CSRF_CONTEXT = 'labld csrf v1\0';

export function csrfToken(secret: Buffer, sessionId: string): string {
  return createHmac('sha256', secret)
    .update(CSRF_CONTEXT + sessionId, 'utf8')
    .digest('base64url');
}

export function verifyCsrfToken(secret: Buffer, sessionId: string, token: string | undefined): boolean {
  if (token === undefined || token.length > 128) return false;
  return constantTimeEqual(csrfToken(secret, sessionId), token);
}
