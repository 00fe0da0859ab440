// Credential → viewer: the gateway's half (hashes only) and the consumer's (against a real store).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { credentialOf, resolveViewer } from '../../../lib/catalogue/auth/actor.ts';
import { createSession } from '../../../lib/catalogue/auth/sessions.ts';
import { createToken } from '../../../lib/catalogue/auth/tokens.ts';
import type { CatalogueStore } from '../../../lib/catalogue/store/contract.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { rejection } from '../../support/client-error.ts';

describe('credentialOf (gateway side)', () => {
  it('carries only hashes: a token wins over the cookie, no credential is anonymous', () => {
    const token = createToken();
    const session = createSession();
    const cookie = `other=1; labld_session=${session.id}`;
    assert.deepEqual(credentialOf({ authorization: token.token, cookie }, false), {
      kind: 'token',
      hash: token.hash,
    });
    assert.deepEqual(credentialOf({ authorization: `Bearer ${token.token}` }, false), {
      kind: 'token',
      hash: token.hash,
    });
    assert.deepEqual(credentialOf({ cookie }, false), { kind: 'session', hash: session.hash });
    assert.deepEqual(credentialOf({ cookie }, true), { kind: 'anonymous' }, 'https wants the __Host- cookie');
    assert.deepEqual(credentialOf({}, false), { kind: 'anonymous' });
  });

  it('a malformed token header is unauthorized, naming the header', () => {
    assert.throws(
      () => credentialOf({ authorization: 'not-a-token' }, false),
      (e: unknown) => e instanceof Error && 'field' in e && e.field === 'Authorization',
    );
  });
});

describe('resolveViewer (consumer side)', () => {
  let dataDir: string;
  let store: CatalogueStore;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'labld-actor-'));
    store = await openCatalogueStore({ dataDir });
  });
  after(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a token resolves to its user with their roles, and records its use', async () => {
    const ada = await store.createUser({ name: 'ada' });
    const ds = await store.createDataset({ name: 'ds' });
    await store.setRole('ada', 'ds', 'editor');
    const token = createToken();
    await store.createToken({ user_id: ada.id, name: 'scripts', token_hash: token.hash });
    const viewer = await resolveViewer(store, { kind: 'token', hash: token.hash });
    assert.equal(viewer.user?.name, 'ada');
    assert.ok(viewer.actor !== 'anonymous');
    assert.deepEqual([...viewer.actor.roles], [[ds.id, 'editor']]);
    assert.notEqual((await store.findTokenByHash(token.hash))?.last_used, null);
  });

  it('an unknown token is unauthorized; an unknown or expired session is anonymous', async () => {
    const wrong = await rejection(resolveViewer(store, { kind: 'token', hash: createToken().hash }));
    assert.deepEqual([wrong.kind, wrong.field], ['unauthorized', 'Authorization']);
    assert.equal((await resolveViewer(store, { kind: 'session', hash: 'nope' })).actor, 'anonymous');
    const bob = await store.createUser({ name: 'bob', sysadmin: true });
    const old = createSession(new Date('2020-01-01T00:00:00Z'));
    await store.createSession({
      session_hash: old.hash,
      user_id: bob.id,
      expires: old.expiresAt.toISOString(),
    });
    assert.equal((await resolveViewer(store, { kind: 'session', hash: old.hash })).actor, 'anonymous');
    const live = createSession();
    await store.createSession({
      session_hash: live.hash,
      user_id: bob.id,
      expires: live.expiresAt.toISOString(),
    });
    const viewer = await resolveViewer(store, { kind: 'session', hash: live.hash });
    assert.deepEqual([viewer.user?.name, viewer.sessionHash], ['bob', live.hash]);
    assert.ok(viewer.actor !== 'anonymous' && viewer.actor.sysadmin);
  });
});
