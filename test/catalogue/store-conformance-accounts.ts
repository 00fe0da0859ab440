// The catalogue store conformance suite, part two: users, their roles per dataset and their
// API tokens (run by catalogueStoreConformance for each environment).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejection } from '../support/client-error.ts';
import { freshStore, type CatalogueEnvironment } from './store-conformance.ts';

export function accountConformance(env: CatalogueEnvironment): void {
  describe(`Catalogue store conformance, users and tokens: ${env.name}`, () => {
    const t = freshStore(env);

    test('users: unique names, found by id and name, updated, listed', async () => {
      const u = await t.store.createUser({
        name: 'ada',
        fullname: 'Ada L.',
        email: 'ada@example.org',
        password_hash: 'h1',
      });
      assert.deepEqual([u.sysadmin, u.password_hash, u.fullname], [false, 'h1', 'Ada L.']);
      assert.deepEqual(await t.store.getUser('ada'), u);
      assert.deepEqual(await t.store.getUser(u.id), u);
      const taken = await rejection(t.store.createUser({ name: 'ada' }));
      assert.deepEqual([taken.kind, taken.field], ['conflict', 'name']);
      assert.equal((await rejection(t.store.createUser({ name: 'Ada!' }))).kind, 'invalid');
      const admin = await t.store.updateUser('ada', { sysadmin: true, password_hash: null });
      assert.deepEqual([admin.sysadmin, admin.password_hash, admin.email], [true, null, 'ada@example.org']);
      await t.store.createUser({ name: 'aaron' });
      assert.deepEqual(
        (await t.store.listUsers()).map((x) => x.name),
        ['aaron', 'ada'],
      );
      assert.equal((await rejection(t.store.updateUser('nobody', { fullname: 'x' }))).kind, 'not-found');
      assert.equal(await t.store.getUser('nobody'), undefined);
    });

    test('roles per dataset are set, replaced, read both ways and removed', async () => {
      const ada = await t.store.createUser({ name: 'ada' });
      const bob = await t.store.createUser({ name: 'bob' });
      const d = await t.store.createDataset({ name: 'ds' });
      const e = await t.store.createDataset({ name: 'es' });
      assert.deepEqual(await t.store.setRole('ada', 'ds', 'reader'), {
        user_id: ada.id,
        package_id: d.id,
        role: 'reader',
      });
      await t.store.setRole(ada.id, d.id, 'editor');
      await t.store.setRole(bob.id, d.id, 'admin');
      await t.store.setRole(ada.id, e.id, 'reader');
      assert.equal(await t.store.roleOf('ada', 'ds'), 'editor');
      assert.equal(await t.store.roleOf(bob.id, e.id), undefined);
      assert.deepEqual((await t.store.membersOfDataset('ds')).map((m) => m.role).sort(), ['admin', 'editor']);
      assert.equal((await t.store.rolesOfUser('ada')).length, 2);
      await t.store.removeRole('ada', 'ds');
      assert.equal(await t.store.roleOf('ada', 'ds'), undefined);
      assert.deepEqual([(await rejection(t.store.setRole('ada', 'ds', 'owner' as 'admin'))).field], ['role']);
      assert.deepEqual([(await rejection(t.store.setRole('nobody', 'ds', 'reader'))).kind], ['not-found']);
      assert.deepEqual(
        [(await rejection(t.store.setRole('ada', 'nothing', 'reader'))).field],
        ['package_id'],
      );
    });

    test('API tokens: found by hash, listed, touched, revoked', async () => {
      const ada = await t.store.createUser({ name: 'ada' });
      const token = await t.store.createToken({ user_id: 'ada', name: 'scripts', token_hash: 'hash-1' });
      assert.deepEqual(
        [token.user_id, token.name, token.token_hash, token.last_used],
        [ada.id, 'scripts', 'hash-1', null],
      );
      await t.store.createToken({ user_id: ada.id, name: 'ci', token_hash: 'hash-2' });
      assert.deepEqual(await t.store.findTokenByHash('hash-1'), token);
      assert.equal(await t.store.findTokenByHash('hash-3'), undefined);
      const dup = await rejection(t.store.createToken({ user_id: ada.id, name: 'x', token_hash: 'hash-1' }));
      assert.deepEqual([dup.kind, dup.field], ['conflict', 'token_hash']);
      assert.equal(
        (await rejection(t.store.createToken({ user_id: 'nobody', name: 'x', token_hash: 'h' }))).kind,
        'not-found',
      );
      await t.store.touchToken(token.id, '2026-11-25T08:00:00.000Z');
      assert.equal((await t.store.findTokenByHash('hash-1'))?.last_used, '2026-11-25T08:00:00.000Z');
      assert.deepEqual((await t.store.listTokens('ada')).map((x) => x.name).sort(), ['ci', 'scripts']);
      await t.store.revokeToken(token.id);
      assert.equal(await t.store.findTokenByHash('hash-1'), undefined);
      assert.equal((await rejection(t.store.revokeToken(token.id))).kind, 'not-found');
      assert.equal((await rejection(t.store.touchToken(token.id))).kind, 'not-found');
    });

    test('browser sessions: live until they expire, ended by logout', async () => {
      const ada = await t.store.createUser({ name: 'ada' });
      const session = await t.store.createSession({
        session_hash: 's-1',
        user_id: 'ada',
        expires: '2026-12-01T00:00:00.000Z',
      });
      assert.deepEqual([session.user_id, session.expires], [ada.id, '2026-12-01T00:00:00.000Z']);
      await t.store.createSession({
        session_hash: 's-2',
        user_id: ada.id,
        expires: '2026-11-01T00:00:00.000Z',
      });
      const before = '2026-11-25T00:00:00.000Z';
      assert.deepEqual(await t.store.findLiveSession('s-1', before), session);
      assert.equal(await t.store.findLiveSession('s-2', before), undefined, 'expired');
      assert.equal(
        await t.store.findLiveSession('s-1', '2026-12-01T00:00:00.000Z'),
        undefined,
        'ends at expiry',
      );
      assert.equal(await t.store.deleteExpiredSessions(before), 1);
      const dup = await rejection(
        t.store.createSession({ session_hash: 's-1', user_id: ada.id, expires: '2026-12-01T00:00:00.000Z' }),
      );
      assert.deepEqual([dup.kind, dup.field], ['conflict', 'session_hash']);
      const bad = await rejection(
        t.store.createSession({ session_hash: 's-3', user_id: ada.id, expires: 'soon' }),
      );
      assert.deepEqual([bad.kind, bad.field], ['invalid', 'expires']);
      assert.equal(
        (await rejection(t.store.createSession({ session_hash: 's-3', user_id: 'nobody', expires: before })))
          .kind,
        'not-found',
      );
      await t.store.deleteSession('s-1');
      await t.store.deleteSession('s-1');
      assert.equal(await t.store.findLiveSession('s-1', before), undefined, 'logged out');
    });
  });
}
