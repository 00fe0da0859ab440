// The caller's openBIS credentials (research §3.2) against the openBIS test double: every
// scheme, the ELN cookie, the optional service account, and sessions this side opened are
// closed again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OpenbisClient } from '../../lib/extractor/openbis/client.ts';
import { readCredentials, withSession } from '../../lib/extractor/session.ts';
import { waitFor } from '../support/wait.ts';
import { startOpenbisDouble, type OpenbisDouble } from '../support/openbis-double.ts';

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('openBIS credentials', () => {
  let double: OpenbisDouble;
  let client: OpenbisClient;
  before(async () => {
    double = await startOpenbisDouble();
    client = new OpenbisClient({ url: double.origin });
  });
  after(() => double.close());

  it('reads Basic, Token and Bearer (any case), then the cookie; refuses other schemes', () => {
    assert.deepEqual(readCredentials({ authorization: basic('admin', 'a:b') }, {}), {
      kind: 'login',
      user: 'admin',
      password: 'a:b',
    });
    assert.deepEqual(readCredentials({ authorization: 'token abc' }, {}), { kind: 'token', token: 'abc' });
    assert.deepEqual(readCredentials({ authorization: 'BEARER abc' }, {}), { kind: 'token', token: 'abc' });
    assert.deepEqual(readCredentials({ cookie: 'xyz' }, {}), { kind: 'token', token: 'xyz' });
    assert.throws(() => readCredentials({ authorization: 'Digest abc' }, {}), { kind: 'unauthorized' });
    assert.throws(() => readCredentials({ cookie: 'null' }, {}), {
      kind: 'unauthorized',
      field: 'authorization',
    });
    assert.throws(
      () => readCredentials({ authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` }, {}),
      {
        kind: 'unauthorized',
      },
    );
  });

  it('uses a service account only when LABLD_OPENBIS_SERVICE_ACCOUNT names one', () => {
    assert.throws(() => readCredentials({}, { ADMIN_PASS: 'changeit' }), { kind: 'unauthorized' });
    assert.deepEqual(
      readCredentials({}, { LABLD_OPENBIS_SERVICE_ACCOUNT: 'admin', ADMIN_PASS: 'changeit' }),
      {
        kind: 'login',
        user: 'admin',
        password: 'changeit',
      },
    );
  });

  it('logs a Basic session out after the work, also when the work fails', async () => {
    const open = double.sessions.size;
    const seen = await withSession(client, { authorization: basic('admin', 'changeit') }, async (token) => {
      assert.equal(double.sessions.has(token), true);
      return token;
    });
    assert.equal(double.sessions.has(seen), false);
    await assert.rejects(
      withSession(client, { authorization: basic('admin', 'changeit') }, async () => {
        throw new Error('work failed');
      }),
      /work failed/,
    );
    assert.equal(double.sessions.size, open);
    // An answer that goes on after the work returned (a streamed file) keeps it until it settles.
    let done: () => void = () => {};
    const streaming = new Promise<void>((resolve) => (done = resolve));
    const held = await withSession(
      client,
      { authorization: basic('admin', 'changeit') },
      async (token, hold) => {
        hold(streaming);
        return token;
      },
    );
    assert.equal(double.sessions.has(held), true, 'still open while the answer streams');
    done();
    await waitFor('the held session to be logged out', () => !double.sessions.has(held));
    await assert.rejects(
      withSession(client, { authorization: basic('admin', 'wrong') }, async () => 1),
      {
        kind: 'unauthorized',
      },
    );
    await assert.rejects(
      withSession(client, { authorization: 'Token dead' }, async () => 1),
      {
        kind: 'unauthorized',
        message: /not active/,
      },
    );
  });
});
