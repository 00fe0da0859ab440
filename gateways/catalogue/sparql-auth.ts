// Who asks at a dataset's SPARQL endpoint. As on the Action API: an API token in
// `Authorization` (bare or `Bearer`) or `X-CKAN-API-Key`; the session cookie for GET, and for
// POST only from labld's own pages (`Sec-Fetch-Site: same-origin`), so that a cross-site form
// cannot update as its victim. And, because SPARQL clients (SPARQLWrapper, rdflib's SPARQLStore,
// curl -u, YASGUI) know no other, HTTP Basic: a user name with an API token as the password (the
// name is then not read: the token says who), or with the user's password, checked as the login
// form checks it (same throttle). A checked password becomes a short session of the catalogue
// store, kept here under an HMAC of name and password, so that a notebook's hundred queries cost
// one scrypt, not a hundred; the bus still carries hashes only.
import { createHmac } from 'node:crypto';
import type { Context } from 'koa';
import { credentialOf, type Credential } from '../../lib/catalogue/auth/actor.ts';
import { createSession } from '../../lib/catalogue/auth/sessions.ts';
import { hashToken, isWellFormedToken } from '../../lib/catalogue/auth/tokens.ts';
import { basicCredentials } from '../../lib/http-basic.ts';
import { unauthorized } from '../../lib/process/errors.ts';
import { baseUrl } from '../../lib/services.ts';
import { checkPassword, type Accounts } from './accounts.ts';

const FIELD = 'Authorization';
/** How long a checked Basic password stands for its user (a password changed meanwhile is seen after it). */
const BASIC_SESSION_MS = 10 * 60_000;
/** Checked passwords remembered at most (the oldest go first). */
const REMEMBERED = 1000;

/** A refusal with a status of its own (Koa's http-errors shape, which the kit answers as such). */
export interface RetryLater extends Error {
  status: 429;
  expose: true;
  retryAfter: number;
}

export class EndpointCredentials {
  readonly #accounts: Accounts | undefined;
  readonly #sessions = new Map<string, { hash: string; until: number }>();

  constructor(accounts: Accounts | undefined) {
    this.#accounts = accounts;
  }

  async of(ctx: Context): Promise<Credential> {
    const authorization = ctx.get('authorization') || undefined;
    const basic = basicCredentials(authorization, FIELD);
    if (!basic) {
      const cookieCounts = ctx.method === 'GET' || ctx.get('sec-fetch-site') === 'same-origin';
      return credentialOf(
        {
          authorization,
          'x-ckan-api-key': ctx.get('x-ckan-api-key') || undefined,
          cookie: cookieCounts ? ctx.get('cookie') || undefined : undefined,
        },
        baseUrl().startsWith('https:'),
      );
    }
    if (isWellFormedToken(basic.password)) return { kind: 'token', hash: hashToken(basic.password) };
    return { kind: 'session', hash: await this.#passwordSession(ctx, basic.user, basic.password) };
  }

  async #passwordSession(ctx: Context, user: string, password: string): Promise<string> {
    const a = this.#accounts;
    if (!a) throw unauthorized(`${FIELD}: send an API token as the Basic password`, FIELD);
    const key = createHmac('sha256', await a.secret())
      .update(`${user}\0${password}`)
      .digest('hex');
    const known = this.#sessions.get(key);
    if (known && known.until > Date.now()) return known.hash;
    this.#sessions.delete(key);
    const checked = await checkPassword(ctx, a, user, password);
    if ('waitMs' in checked) {
      const seconds = Math.ceil(checked.waitMs / 1000);
      const error = new Error(`${FIELD}: too many failed logins; try again in ${seconds} s`);
      throw Object.assign(error, { status: 429, expose: true, retryAfter: seconds }) as RetryLater;
    }
    if (!checked.user) throw unauthorized(`${FIELD}: the user name or the password is wrong`, FIELD);
    const session = createSession(new Date(), BASIC_SESSION_MS);
    const store = await a.store();
    await store.createSession({
      user_id: checked.user.id,
      session_hash: session.hash,
      expires: session.expiresAt.toISOString(),
    });
    await store.deleteExpiredSessions();
    if (this.#sessions.size >= REMEMBERED) this.#sessions.delete(this.#sessions.keys().next().value!);
    // Given up a minute early, so that a remembered one is never a session the store let go.
    this.#sessions.set(key, { hash: session.hash, until: session.expiresAt.getTime() - 60_000 });
    return session.hash;
  }
}
