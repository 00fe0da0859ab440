import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../../lib/process/errors.ts';
import {
  PASSWORD_MIN_LENGTH,
  SCRYPT_DEFAULTS,
  checkPasswordPolicy,
  generateOneTimePassword,
  hashPassword,
  needsRehash,
  verifyPassword,
} from '../../../lib/catalogue/auth/passwords.ts';

// Cheap parameters for most cases: the format and the comparison are the same at any cost.
const CHEAP = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery staple';

describe('password hashing', () => {
  it('stores scrypt at the default cost in a self-describing string and verifies it', async () => {
    const stored = await hashPassword(PASSWORD);
    assert.match(stored, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    assert.equal(await verifyPassword(PASSWORD, stored), true);
  });

  it('refuses a wrong password, and salts every hash', async () => {
    const a = await hashPassword(PASSWORD, CHEAP);
    const b = await hashPassword(PASSWORD, CHEAP);
    assert.notEqual(a, b);
    assert.equal(await verifyPassword('correct horse battery stapl', a), false);
    assert.equal(await verifyPassword(PASSWORD.toUpperCase(), a), false);
    assert.equal(await verifyPassword('', a), false);
  });

  it('matches composed and decomposed spellings of the same password', async () => {
    const stored = await hashPassword('caf\u00e9-au-lait-42', CHEAP);
    assert.equal(await verifyPassword('cafe\u0301-au-lait-42', stored), true);
  });

  it('refuses a tampered or unreadable stored hash instead of throwing', async () => {
    const stored = await hashPassword(PASSWORD, CHEAP);
    const parts = stored.split('$');
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    const tampered = [
      [...parts.slice(0, 5), flip(parts[5]!)].join('$'), // hash
      [...parts.slice(0, 4), flip(parts[4]!), parts[5]].join('$'), // salt
      ['scrypt', 2048, ...parts.slice(2)].join('$'), // cost lowered
      ['scrypt', 2 ** 30, ...parts.slice(2)].join('$'), // cost past the bound: not computed
      ['scrypt', 1000, ...parts.slice(2)].join('$'), // N not a power of two
      ['bcrypt', ...parts.slice(1)].join('$'),
      parts.slice(0, 5).join('$'),
      'scrypt$1024$8$1$$',
      '',
    ];
    for (const bad of tampered) assert.equal(await verifyPassword(PASSWORD, bad), false, bad);
  });

  it('answers a missing user with false after the same work', async () => {
    assert.equal(await verifyPassword(PASSWORD, undefined), false);
  });

  it('asks for a rehash when the stored cost is below the current one', async () => {
    const cheap = await hashPassword(PASSWORD, CHEAP);
    assert.equal(needsRehash(cheap), true);
    assert.equal(needsRehash(cheap, CHEAP), false);
    assert.equal(needsRehash(cheap, { ...CHEAP, r: 16 }), true);
    assert.equal(needsRehash('not a hash'), true);
    const current = await hashPassword(PASSWORD);
    assert.equal(needsRehash(current, SCRYPT_DEFAULTS), false);
    // The old hash still verifies, so login can upgrade it.
    assert.equal(await verifyPassword(PASSWORD, cheap), true);
  });
});

describe('password policy', () => {
  it('refuses a short password as invalid, naming the field', async () => {
    for (const short of ['', 'a', 'x'.repeat(PASSWORD_MIN_LENGTH - 1)]) {
      assert.throws(
        () => checkPasswordPolicy(short),
        (e: unknown) =>
          e instanceof DomainError &&
          e.kind === 'invalid' &&
          e.field === 'password' &&
          /at least 12/.test(e.detail),
      );
    }
    await assert.rejects(hashPassword('short', CHEAP), { kind: 'invalid', field: 'password' });
    assert.throws(() => checkPasswordPolicy('x'.repeat(1025)), { kind: 'invalid', field: 'password' });
    checkPasswordPolicy('x'.repeat(PASSWORD_MIN_LENGTH));
  });

  it('counts characters, not bytes or UTF-16 units', () => {
    assert.throws(() => checkPasswordPolicy('😀'.repeat(PASSWORD_MIN_LENGTH - 1)), { kind: 'invalid' });
    checkPasswordPolicy('ü'.repeat(PASSWORD_MIN_LENGTH));
  });
});

describe('one-time passwords', () => {
  it('are readable, pass the policy and do not repeat', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const password = generateOneTimePassword();
      assert.match(password, /^[a-km-np-zA-HJ-NP-Y3479]{5}(-[a-km-np-zA-HJ-NP-Y3479]{5}){3}$/);
      assert.doesNotMatch(password, /[0O1lI]/);
      checkPasswordPolicy(password);
      seen.add(password);
    }
    assert.equal(seen.size, 200);
    const one = generateOneTimePassword();
    assert.equal(await verifyPassword(one, await hashPassword(one, CHEAP)), true);
  });
});
