import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from '../../support/fc.ts';
import { DomainError } from '../../../lib/process/errors.ts';
import {
  constantTimeEqual,
  createToken,
  hashToken,
  isWellFormedToken,
  tokenFromHeaders,
  tokenMatches,
} from '../../../lib/catalogue/auth/tokens.ts';

const unauthorizedNaming = (header: string) => (e: unknown) =>
  e instanceof DomainError && e.kind === 'unauthorized' && e.field === header;

describe('API tokens', () => {
  it('are prefixed, 256-bit, and stored only as their SHA-256', () => {
    const { token, hash, hint } = createToken();
    assert.match(token, /^labld_[A-Za-z0-9_-]{49}$/);
    assert.equal(Buffer.from(token.slice(6, 49), 'base64url').length, 32);
    assert.equal(hash, createHash('sha256').update(token).digest('hex'));
    assert.equal(hint, `${token.slice(0, 10)}…`);
    assert.ok(!hash.includes(token.slice(6)));
  });

  it('round-trip: the presented token matches its stored hash, no other does', () => {
    const a = createToken();
    const b = createToken();
    assert.notEqual(a.token, b.token);
    assert.equal(tokenMatches(a.token, a.hash), true);
    assert.equal(tokenMatches(b.token, a.hash), false);
    assert.equal(tokenMatches(a.token, a.hash.slice(1)), false);
    assert.equal(hashToken(a.token), a.hash);
  });

  it('checks the checksum, so a typo is refused without a look-up', () => {
    const { token } = createToken();
    assert.equal(isWellFormedToken(token), true);
    const typo = token.slice(0, 20) + (token[20] === 'a' ? 'b' : 'a') + token.slice(21);
    assert.equal(isWellFormedToken(typo), false);
    assert.equal(isWellFormedToken(token.slice(0, -1)), false);
    assert.equal(isWellFormedToken(`ghp_${token.slice(6)}`), false);
    assert.equal(isWellFormedToken(`${token} `), false);
  });

  it('compares in constant time only equal-length values, and any unequal pair is false', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        assert.equal(constantTimeEqual(a, b), a === b);
        assert.equal(constantTimeEqual(a, a), true);
      }),
    );
  });
});

describe('the Authorization header', () => {
  const { token } = createToken();

  it('is read bare (as CKAN clients send it), as Bearer in any case, and as X-CKAN-API-Key', () => {
    assert.equal(tokenFromHeaders({ authorization: token }), token);
    assert.equal(tokenFromHeaders({ authorization: `Bearer ${token}` }), token);
    assert.equal(tokenFromHeaders({ authorization: `bearer  ${token} ` }), token);
    assert.equal(tokenFromHeaders({ authorization: `BEARER ${token}` }), token);
    assert.equal(tokenFromHeaders({ 'x-ckan-api-key': token }), token);
    // Both sent (ckanapi does): Authorization is the one read.
    assert.equal(tokenFromHeaders({ authorization: token, 'x-ckan-api-key': 'junk' }), token);
  });

  it('absent or empty means anonymous', () => {
    assert.equal(tokenFromHeaders({}), undefined);
    assert.equal(tokenFromHeaders({ authorization: '' }), undefined);
    assert.equal(tokenFromHeaders({ authorization: '   ', 'x-ckan-api-key': '' }), undefined);
  });

  it('present but not a labld token is unauthorized, naming the header', () => {
    for (const value of [
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      'Bearer',
      `Token ${token}`,
      `${token}x`,
      'labld_',
      `Bearer ${token} extra`,
    ]) {
      assert.throws(
        () => tokenFromHeaders({ authorization: value }),
        unauthorizedNaming('Authorization'),
        value,
      );
    }
    assert.throws(() => tokenFromHeaders({ 'x-ckan-api-key': 'nope' }), unauthorizedNaming('X-CKAN-API-Key'));
  });
});
