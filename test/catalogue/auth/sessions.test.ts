import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  SESSION_TTL_MS,
  clearedSessionCookie,
  createSession,
  csrfToken,
  hashSessionId,
  isSessionLive,
  parseCookieHeader,
  sessionCookie,
  sessionIdFromCookieHeader,
  verifyCsrfToken,
} from '../../../lib/catalogue/auth/sessions.ts';
import { serverSecret } from '../../../lib/catalogue/auth/secrets.ts';

const NOW = new Date('2026-11-25T08:00:00Z');

describe('sessions', () => {
  it('have a random id, a stored SHA-256 hash and an expiry', () => {
    const a = createSession(NOW);
    const b = createSession(NOW);
    assert.notEqual(a.id, b.id);
    assert.match(a.id, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(a.hash, createHash('sha256').update(a.id).digest('hex'));
    assert.equal(hashSessionId(a.id), a.hash);
    assert.equal(a.expiresAt.getTime(), NOW.getTime() + SESSION_TTL_MS);
  });

  it('are live until they expire', () => {
    const session = createSession(NOW, 60_000);
    assert.equal(isSessionLive(session, NOW), true);
    assert.equal(isSessionLive(session, new Date(NOW.getTime() + 59_999)), true);
    assert.equal(isSessionLive(session, new Date(NOW.getTime() + 60_000)), false);
  });
});

describe('the session cookie', () => {
  const session = createSession(NOW, 3_600_000);

  it('is HttpOnly, SameSite=Lax, host-only, and Secure with the __Host- prefix on https', () => {
    assert.equal(
      sessionCookie({ id: session.id, secure: true, expiresAt: session.expiresAt, now: NOW }),
      `__Host-labld_session=${session.id}; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure`,
    );
    assert.equal(
      sessionCookie({ id: session.id, secure: false, expiresAt: session.expiresAt, now: NOW }),
      `labld_session=${session.id}; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax`,
    );
    assert.equal(
      clearedSessionCookie(true),
      '__Host-labld_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure',
    );
  });

  it('is found among other cookies, and only under the name for the scheme', () => {
    const header = `theme=dark; labld_session=${session.id}; other="quoted"`;
    assert.equal(sessionIdFromCookieHeader(header, false), session.id);
    assert.equal(sessionIdFromCookieHeader(header, true), undefined);
    assert.equal(sessionIdFromCookieHeader(`__Host-labld_session=${session.id}`, true), session.id);
    assert.equal(parseCookieHeader(header).get('other'), 'quoted');
  });

  it('ignores malformed headers and ids', () => {
    assert.equal(sessionIdFromCookieHeader(undefined, false), undefined);
    assert.equal(sessionIdFromCookieHeader('labld_session=short', false), undefined);
    assert.equal(sessionIdFromCookieHeader(`labld_session=${session.id}x`, false), undefined);
    assert.equal(sessionIdFromCookieHeader(`labld_session=${'a'.repeat(42)}/`, false), undefined);
    assert.equal(
      sessionIdFromCookieHeader(`x=${'y'.repeat(9000)}; labld_session=${session.id}`, false),
      undefined,
    );
    assert.deepEqual([...parseCookieHeader('novalue; =x; a=1; a=2')], [['a', '1']]);
  });
});

describe('CSRF tokens', () => {
  const secret = Buffer.alloc(32, 7);
  const session = createSession(NOW);

  it('verify for the session they were made for', () => {
    const token = csrfToken(secret, session.id);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(verifyCsrfToken(secret, session.id, token), true);
  });

  it('fail for another session, another secret, a tampered or missing token', () => {
    const token = csrfToken(secret, session.id);
    assert.equal(verifyCsrfToken(secret, createSession(NOW).id, token), false);
    assert.equal(verifyCsrfToken(Buffer.alloc(32, 8), session.id, token), false);
    const tampered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    assert.equal(verifyCsrfToken(secret, session.id, tampered), false);
    assert.equal(verifyCsrfToken(secret, session.id, token.slice(0, -1)), false);
    assert.equal(verifyCsrfToken(secret, session.id, ''), false);
    assert.equal(verifyCsrfToken(secret, session.id, undefined), false);
    assert.equal(verifyCsrfToken(secret, session.id, 'x'.repeat(10_000)), false);
  });

  it('are not the session id itself nor derivable from it without the secret', () => {
    const token = csrfToken(secret, session.id);
    assert.notEqual(token, session.id);
    assert.notEqual(token, createHash('sha256').update(session.id).digest('base64url'));
  });
});

describe('the server secret', () => {
  const dirs: string[] = [];
  after(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('is made once under the data directory, private to the owner, and read back the same', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'labld-secret-'));
    dirs.push(dir);
    const [a, b, c] = await Promise.all([serverSecret(dir), serverSecret(dir), serverSecret(dir)]);
    assert.equal(a.length, 32);
    assert.deepEqual(b, a);
    assert.deepEqual(c, a);
    assert.deepEqual(await serverSecret(dir), a);
    const file = join(dir, 'secrets', 'csrf.key');
    assert.deepEqual(await readFile(file), a);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'secrets'))).mode & 0o777, 0o700);
  });
});
