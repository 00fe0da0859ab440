// The catalogue store conformance suite: written against the contract only, run once per
// implementation. A test file supplies an environment that hands out isolated namespaces (a
// temporary data directory, a PostgreSQL schema).
import { describe, test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogueStore } from '../../lib/catalogue/store/contract.ts';
import type { Resource } from '../../lib/catalogue/model.ts';
import { rejection } from '../support/client-error.ts';
import { storeModelProperty } from './store-model.ts';

export interface CatalogueNamespace {
  /** A store opened on this namespace (again: a second process opening the same database). */
  connect(): Promise<CatalogueStore>;
  /** Records a schema version newer than the code's, as a newer labld would have. */
  recordSchemaVersion(version: number): Promise<void>;
  /** Closes what connect() handed out and removes the namespace. */
  dispose(): Promise<void>;
}

export interface CatalogueEnvironment {
  name: string;
  fresh(): Promise<CatalogueNamespace>;
}

/** The namespace bookkeeping both environments share: stores handed out are closed at dispose. */
export function namespaceOf(
  open: () => Promise<CatalogueStore>,
  recordSchemaVersion: (version: number) => Promise<void>,
  cleanup: () => Promise<void>,
): CatalogueNamespace {
  const opened: CatalogueStore[] = [];
  return {
    async connect() {
      const store = await open();
      opened.push(store);
      return store;
    },
    recordSchemaVersion,
    async dispose() {
      await Promise.all(opened.map((s) => s.close()));
      await cleanup();
    },
  };
}

const link = (name: string, extra: Partial<Resource> = {}) => ({
  name,
  url: `https://files.example.org/${name}`,
  url_type: 'link' as const,
  ...extra,
});

export function catalogueStoreConformance(env: CatalogueEnvironment): void {
  describe(`Catalogue store conformance: ${env.name}`, () => {
    let ns: CatalogueNamespace;
    let store: CatalogueStore;
    beforeEach(async () => {
      ns = await env.fresh();
      store = await ns.connect();
    });
    afterEach(() => ns.dispose());

    test('a dataset is created with defaults and found by id and by name', async () => {
      const owner = await store.createUser({ name: 'ada' });
      const d = await store.createDataset({
        name: 'tensile-tests',
        title: 'Tensile tests',
        creator_user_id: owner.id,
      });
      assert.match(d.id, /^[0-9a-f-]{36}$/);
      assert.deepEqual(
        { ...d, id: undefined, metadata_created: undefined, metadata_modified: undefined },
        {
          id: undefined,
          name: 'tensile-tests',
          title: 'Tensile tests',
          notes: '',
          private: false,
          creator_user_id: owner.id,
          metadata_created: undefined,
          metadata_modified: undefined,
          groups: [],
        },
      );
      assert.equal(d.metadata_created, d.metadata_modified);
      assert.ok(!Number.isNaN(Date.parse(d.metadata_created)));
      assert.deepEqual(await store.getDataset(d.id), d);
      assert.deepEqual(await store.getDataset('tensile-tests'), d);
      assert.equal(await store.getDataset('absent'), undefined);
    });

    test('dataset names follow CKAN rules and are unique', async () => {
      for (const name of ['a', 'Upper', 'with space', 'x'.repeat(101), 'dot.ted', '']) {
        const e = await rejection(store.createDataset({ name }));
        assert.equal(e.kind, 'invalid', name);
        assert.equal(e.field, 'name');
      }
      await store.createDataset({ name: 'ok_name-2' });
      await store.createDataset({ name: 'x'.repeat(100) });
      const taken = await rejection(store.createDataset({ name: 'ok_name-2' }));
      assert.deepEqual([taken.kind, taken.field], ['conflict', 'name']);
      const other = await store.createDataset({ name: 'other' });
      const renamed = await rejection(store.patchDataset(other.id, { name: 'ok_name-2' }));
      assert.deepEqual([renamed.kind, renamed.field], ['conflict', 'name']);
      assert.equal((await store.getDataset(other.id))?.name, 'other');
    });

    test('update replaces the fields, patch changes only those given', async () => {
      const d = await store.createDataset({ name: 'd1', title: 'T', notes: 'N', private: true });
      const patched = await store.patchDataset('d1', { notes: 'new notes' });
      assert.deepEqual([patched.title, patched.notes, patched.private], ['T', 'new notes', true]);
      assert.ok(patched.metadata_modified >= d.metadata_modified);
      assert.equal(patched.metadata_created, d.metadata_created);
      const updated = await store.updateDataset(d.id, { name: 'd1-renamed', title: 'T2' });
      assert.deepEqual(
        [updated.name, updated.title, updated.notes, updated.private],
        ['d1-renamed', 'T2', '', false],
      );
      assert.equal(await store.getDataset('d1'), undefined);
      const missing = await rejection(store.patchDataset('nope', { title: 'x' }));
      assert.equal(missing.kind, 'not-found');
      assert.equal((await rejection(store.deleteDataset('nope'))).kind, 'not-found');
    });

    test('search matches every word in name, title or notes, pages, and counts the total', async () => {
      for (let i = 0; i < 25; i++) {
        await store.createDataset({
          name: `set-${String(i).padStart(2, '0')}`,
          title: i % 2 ? 'Tensile Steel' : 'Hardness',
          notes: i % 5 === 0 ? 'Brinell 100%' : '',
        });
      }
      const page1 = await store.searchDatasets({ q: 'steel', limit: 5 });
      assert.equal(page1.count, 12);
      assert.deepEqual(
        page1.results.map((d) => d.name),
        ['set-01', 'set-03', 'set-05', 'set-07', 'set-09'],
      );
      const page3 = await store.searchDatasets({ q: 'steel', limit: 5, offset: 10 });
      assert.deepEqual(
        page3.results.map((d) => d.name),
        ['set-21', 'set-23'],
      );
      assert.equal((await store.searchDatasets({ q: 'TENSILE set-1' })).count, 5);
      assert.equal((await store.searchDatasets({ q: 'brinell hardness' })).count, 3);
      // LIKE wildcards in q are literal characters.
      assert.equal((await store.searchDatasets({ q: '100%' })).count, 5);
      assert.equal((await store.searchDatasets({ q: '%' })).count, 5);
      assert.equal((await store.searchDatasets({ q: 'set_0' })).count, 0);
      assert.equal((await store.searchDatasets()).count, 25);
      assert.equal((await store.searchDatasets({ limit: 0 })).results.length, 0);
      const latest = await store.patchDataset('set-03', { notes: 'touched' });
      const recent = await store.searchDatasets({ sort: 'metadata_modified desc', limit: 1 });
      assert.equal(recent.results[0]?.id, latest.id);
      for (const bad of [{ limit: -1 }, { limit: 1001 }, { limit: 1.5 }, { offset: -1 }]) {
        const e = await rejection(store.searchDatasets(bad));
        assert.equal(e.kind, 'invalid');
        assert.equal(e.field, Object.keys(bad)[0]);
      }
      const sort = await rejection(store.searchDatasets({ sort: 'name; DROP TABLE packages' as 'name asc' }));
      assert.deepEqual([sort.kind, sort.field], ['invalid', 'sort']);
    });

    test('private datasets are listed for their members, or for all when asked', async () => {
      const ada = await store.createUser({ name: 'ada' });
      const bob = await store.createUser({ name: 'bob' });
      await store.createDataset({ name: 'public-one' });
      const secret = await store.createDataset({ name: 'secret', private: true });
      await store.createDataset({ name: 'secret-two', private: true });
      await store.setRole(ada.id, secret.id, 'reader');
      const names = async (q: Parameters<CatalogueStore['searchDatasets']>[0]) =>
        (await store.searchDatasets(q)).results.map((d) => d.name);
      assert.deepEqual(await names({}), ['public-one']);
      assert.deepEqual(await names({ includePrivateFor: ada.id }), ['public-one', 'secret']);
      assert.deepEqual(await names({ includePrivateFor: bob.id }), ['public-one']);
      assert.deepEqual(await names({ includePrivateFor: 'all' }), ['public-one', 'secret', 'secret-two']);
      assert.equal((await store.searchDatasets({ includePrivateFor: ada.id, q: 'secret' })).count, 1);
      assert.deepEqual(
        (await store.listDatasets({ includePrivateFor: 'all', limit: 2, offset: 1 })).map((d) => d.name),
        ['secret', 'secret-two'],
      );
    });

    test('resources are created in order, updated, listed and deleted', async () => {
      const ada = await store.createUser({ name: 'ada' });
      const d = await store.createDataset({ name: 'ds' });
      const csv = await store.createResource('ds', {
        name: 'data.csv',
        format: 'CSV',
        url_type: 'upload',
        url: 'http://localhost/dataset/d/resource/x/download/data.csv',
        blob_key: 'sha256/abc',
        size: 5_000_000_000,
        hash: 'sha256:abc',
        mimetype: 'text/csv',
        creator_user_id: ada.id,
      });
      const page = await store.createResource(d.id, link('page'));
      assert.deepEqual(
        [
          csv.position,
          page.position,
          csv.package_id,
          csv.size,
          csv.blob_key,
          csv.derivation,
          csv.hadPrimarySource,
        ],
        [0, 1, d.id, 5_000_000_000, 'sha256/abc', null, null],
      );
      assert.deepEqual(
        [page.url_type, page.size, page.blob_key, page.creator_user_id],
        ['link', null, null, null],
      );
      assert.deepEqual(await store.getResource(csv.id), csv);
      const changed = await store.updateResource(csv.id, { description: 'raw data', size: 12 });
      assert.deepEqual(
        [changed.description, changed.size, changed.name, changed.created],
        ['raw data', 12, 'data.csv', csv.created],
      );
      assert.ok(changed.last_modified >= csv.last_modified);
      assert.deepEqual(
        (await store.listResources('ds')).map((r) => r.name),
        ['data.csv', 'page'],
      );
      await store.deleteResource(page.id);
      assert.equal(await store.getResource(page.id), undefined);
      assert.equal((await rejection(store.deleteResource(page.id))).kind, 'not-found');
      assert.equal((await rejection(store.updateResource(page.id, { name: 'x' }))).kind, 'not-found');
      const third = await store.createResource('ds', link('third'));
      assert.equal(third.position, 1);
      const none = await rejection(store.createResource('absent', link('x')));
      assert.deepEqual([none.kind, none.field], ['not-found', 'package_id']);
      const badType = await rejection(store.createResource('ds', { name: 'x', url_type: 'ftp' as 'link' }));
      assert.deepEqual([badType.kind, badType.field], ['invalid', 'url_type']);
      const badSize = await rejection(store.createResource('ds', { name: 'x', size: -1 }));
      assert.deepEqual([badSize.kind, badSize.field], ['invalid', 'size']);
      assert.equal((await store.listResources('ds')).length, 2);
    });

    test('a derived resource replaces the one of the same source and step in place', async () => {
      const d = await store.createDataset({ name: 'chain' });
      const csv = await store.createResource(d.id, link('data.csv'));
      const key = { package_id: d.id, source_resource_id: csv.id, step: 'annotate' };
      const first = await store.upsertDerived(key, {
        name: 'data-metadata.jsonld',
        format: 'json-ld',
        url_type: 'upload',
        blob_key: 'k1',
        size: 10,
        hadPrimarySource: csv.url,
        wasGeneratedBy: 'http://annotator/api/annotate?return_type=json-ld',
      });
      assert.deepEqual(first.derivation, { source_resource_id: csv.id, step: 'annotate' });
      assert.deepEqual([first.position, first.hadPrimarySource, first.creator_user_id], [1, csv.url, null]);
      const later = await store.createResource(d.id, link('notes.txt'));
      const again = await store.upsertDerived(
        { ...key, package_id: 'chain' },
        {
          name: 'data-metadata.jsonld',
          format: 'json-ld',
          url_type: 'upload',
          blob_key: 'k2',
          size: 20,
          hadPrimarySource: csv.url,
          wasGeneratedBy: 'http://annotator/api/annotate?return_type=json-ld',
        },
      );
      assert.deepEqual([again.id, again.position, again.created], [first.id, first.position, first.created]);
      assert.deepEqual([again.blob_key, again.size], ['k2', 20]);
      assert.ok(again.last_modified >= first.last_modified);
      const ttl = await store.upsertDerived(
        { package_id: d.id, source_resource_id: again.id, step: 'convert' },
        { name: 'data.ttl', url_type: 'upload', format: 'text/turtle; charset=utf-8' },
      );
      const other = await store.upsertDerived({ ...key, step: 'join' }, { name: 'data-joined.ttl' });
      assert.deepEqual(
        (await store.listResources(d.id)).map((r) => [r.name, r.position]),
        [
          ['data.csv', 0],
          ['data-metadata.jsonld', 1],
          ['notes.txt', 2],
          ['data.ttl', 3],
          ['data-joined.ttl', 4],
        ],
      );
      assert.equal(later.position, 2);
      // Both upserts at once still leave one resource.
      await Promise.all([1, 2, 3].map((n) => store.upsertDerived(key, { name: `race-${n}` })));
      assert.equal((await store.listResources(d.id)).length, 5);

      const gone = await store.deleteDerivedFrom(csv.id);
      assert.deepEqual(new Set(gone), new Set([first.id, ttl.id, other.id]));
      assert.deepEqual(
        (await store.listResources(d.id)).map((r) => r.name),
        ['data.csv', 'notes.txt'],
      );
      assert.deepEqual(await store.deleteDerivedFrom(csv.id), []);

      const elsewhere = await store.createDataset({ name: 'elsewhere' });
      const wrong = await rejection(
        store.upsertDerived(
          { package_id: elsewhere.id, source_resource_id: csv.id, step: 'annotate' },
          { name: 'x' },
        ),
      );
      assert.deepEqual([wrong.kind, wrong.field], ['not-found', 'source_resource_id']);
      const noStep = await rejection(store.upsertDerived({ ...key, step: '' }, { name: 'x' }));
      assert.deepEqual([noStep.kind, noStep.field], ['invalid', 'step']);
    });

    test('deleting a dataset deletes its resources, roles and group memberships, not its users', async () => {
      const ada = await store.createUser({ name: 'ada' });
      const d = await store.createDataset({ name: 'doomed', creator_user_id: ada.id });
      const keep = await store.createDataset({ name: 'kept' });
      const r = await store.createResource(d.id, link('a'));
      await store.createResource(keep.id, link('b'));
      await store.setRole(ada.id, d.id, 'admin');
      await store.setRole(ada.id, keep.id, 'reader');
      await store.createGroup({ name: 'mappings' });
      await store.addGroupMember('mappings', d.id);
      await store.deleteDataset('doomed');
      assert.equal(await store.getDataset(d.id), undefined);
      assert.equal(await store.getResource(r.id), undefined);
      assert.deepEqual(
        (await store.rolesOfUser(ada.id)).map((m) => m.package_id),
        [keep.id],
      );
      assert.equal((await store.getGroup('mappings'))?.package_count, 0);
      assert.equal((await store.getUser('ada'))?.id, ada.id);
      assert.equal((await store.listResources(keep.id)).length, 1);
      const fresh = await store.createDataset({ name: 'doomed' });
      assert.notEqual(fresh.id, d.id);
    });

    test('groups: unique names, members, counts, and the groups of a dataset', async () => {
      const g = await store.createGroup({ name: 'mappings', title: 'Mapping library' });
      assert.deepEqual(
        [g.name, g.title, g.description, g.package_count],
        ['mappings', 'Mapping library', '', 0],
      );
      assert.deepEqual([(await rejection(store.createGroup({ name: 'mappings' }))).kind], ['conflict']);
      assert.equal((await rejection(store.createGroup({ name: 'A B' }))).field, 'name');
      await store.createGroup({ name: 'alpha' });
      const d = await store.createDataset({ name: 'map-1' });
      await store.createDataset({ name: 'map-2' });
      await store.addGroupMember('mappings', 'map-1');
      await store.addGroupMember(g.id, d.id);
      await store.addGroupMember('alpha', 'map-1');
      await store.addGroupMember('mappings', 'map-2');
      assert.deepEqual(
        (await store.listGroups()).map((x) => [x.name, x.package_count]),
        [
          ['alpha', 1],
          ['mappings', 2],
        ],
      );
      assert.deepEqual(
        (await store.getDataset('map-1'))?.groups.map((x) => x.name),
        ['alpha', 'mappings'],
      );
      assert.deepEqual(
        (await store.searchDatasets({ group: 'alpha' })).results.map((x) => x.name),
        ['map-1'],
      );
      assert.equal((await store.searchDatasets({ group: 'absent' })).count, 0);
      await store.removeGroupMember('mappings', 'map-1');
      assert.equal((await store.getGroup(g.id))?.package_count, 1);
      assert.equal((await rejection(store.addGroupMember('absent', 'map-1'))).field, 'group');
      assert.equal((await rejection(store.addGroupMember('alpha', 'absent'))).field, 'package_id');
      assert.equal(await store.getGroup('absent'), undefined);
    });

    test('users: unique names, found by id and name, updated, listed', async () => {
      const u = await store.createUser({
        name: 'ada',
        fullname: 'Ada L.',
        email: 'ada@example.org',
        password_hash: 'h1',
      });
      assert.deepEqual([u.sysadmin, u.password_hash, u.fullname], [false, 'h1', 'Ada L.']);
      assert.deepEqual(await store.getUser('ada'), u);
      assert.deepEqual(await store.getUser(u.id), u);
      const taken = await rejection(store.createUser({ name: 'ada' }));
      assert.deepEqual([taken.kind, taken.field], ['conflict', 'name']);
      assert.equal((await rejection(store.createUser({ name: 'Ada!' }))).kind, 'invalid');
      const admin = await store.updateUser('ada', { sysadmin: true, password_hash: null });
      assert.deepEqual([admin.sysadmin, admin.password_hash, admin.email], [true, null, 'ada@example.org']);
      await store.createUser({ name: 'aaron' });
      assert.deepEqual(
        (await store.listUsers()).map((x) => x.name),
        ['aaron', 'ada'],
      );
      assert.equal((await rejection(store.updateUser('nobody', { fullname: 'x' }))).kind, 'not-found');
      assert.equal(await store.getUser('nobody'), undefined);
    });

    test('roles per dataset are set, replaced, read both ways and removed', async () => {
      const ada = await store.createUser({ name: 'ada' });
      const bob = await store.createUser({ name: 'bob' });
      const d = await store.createDataset({ name: 'ds' });
      const e = await store.createDataset({ name: 'es' });
      assert.deepEqual(await store.setRole('ada', 'ds', 'reader'), {
        user_id: ada.id,
        package_id: d.id,
        role: 'reader',
      });
      await store.setRole(ada.id, d.id, 'editor');
      await store.setRole(bob.id, d.id, 'admin');
      await store.setRole(ada.id, e.id, 'reader');
      assert.equal(await store.roleOf('ada', 'ds'), 'editor');
      assert.equal(await store.roleOf(bob.id, e.id), undefined);
      assert.deepEqual((await store.membersOfDataset('ds')).map((m) => m.role).sort(), ['admin', 'editor']);
      assert.equal((await store.rolesOfUser('ada')).length, 2);
      await store.removeRole('ada', 'ds');
      assert.equal(await store.roleOf('ada', 'ds'), undefined);
      assert.deepEqual([(await rejection(store.setRole('ada', 'ds', 'owner' as 'admin'))).field], ['role']);
      assert.deepEqual([(await rejection(store.setRole('nobody', 'ds', 'reader'))).kind], ['not-found']);
      assert.deepEqual([(await rejection(store.setRole('ada', 'nothing', 'reader'))).field], ['package_id']);
    });

    test('API tokens: found by hash, listed, touched, revoked', async () => {
      const ada = await store.createUser({ name: 'ada' });
      const t = await store.createToken({ user_id: 'ada', name: 'scripts', token_hash: 'hash-1' });
      assert.deepEqual([t.user_id, t.name, t.token_hash, t.last_used], [ada.id, 'scripts', 'hash-1', null]);
      await store.createToken({ user_id: ada.id, name: 'ci', token_hash: 'hash-2' });
      assert.deepEqual(await store.findTokenByHash('hash-1'), t);
      assert.equal(await store.findTokenByHash('hash-3'), undefined);
      const dup = await rejection(store.createToken({ user_id: ada.id, name: 'x', token_hash: 'hash-1' }));
      assert.deepEqual([dup.kind, dup.field], ['conflict', 'token_hash']);
      assert.equal(
        (await rejection(store.createToken({ user_id: 'nobody', name: 'x', token_hash: 'h' }))).kind,
        'not-found',
      );
      await store.touchToken(t.id, '2026-11-25T08:00:00.000Z');
      assert.equal((await store.findTokenByHash('hash-1'))?.last_used, '2026-11-25T08:00:00.000Z');
      assert.deepEqual((await store.listTokens('ada')).map((x) => x.name).sort(), ['ci', 'scripts']);
      await store.revokeToken(t.id);
      assert.equal(await store.findTokenByHash('hash-1'), undefined);
      assert.equal((await rejection(store.revokeToken(t.id))).kind, 'not-found');
      assert.equal((await rejection(store.touchToken(t.id))).kind, 'not-found');
    });

    test('a transaction keeps all of its changes or none', async () => {
      await assert.rejects(
        store.transaction(async (tx) => {
          const d = await tx.createDataset({ name: 'half' });
          await tx.createResource(d.id, link('a'));
          throw new Error('stop');
        }),
        /stop/,
      );
      assert.equal(await store.getDataset('half'), undefined);
      const kept = await store.transaction(async (tx) => {
        const d = await tx.createDataset({ name: 'whole' });
        await tx.createResource(d.id, link('a'));
        return tx.upsertDerived(
          { package_id: d.id, source_resource_id: (await tx.listResources(d.id))[0]!.id, step: 's' },
          { name: 'b' },
        );
      });
      assert.equal((await store.listResources('whole')).length, 2);
      assert.equal(kept.name, 'b');
      // Callers outside wait for a transaction instead of seeing it half-done.
      const results = await Promise.all([
        store.transaction(async (tx) => {
          await tx.createDataset({ name: 'one' });
          await tx.createDataset({ name: 'two' });
          return (await tx.searchDatasets()).count;
        }),
        store.createDataset({ name: 'three' }).then(async () => (await store.searchDatasets()).count),
      ]);
      assert.equal((await store.searchDatasets()).count, 4);
      assert.ok(results.every((n) => n >= 2 && n <= 4));
    });

    test('opening again migrates nothing and sees the same data; a newer schema refuses to open', async () => {
      await store.createDataset({ name: 'before' });
      const second = await ns.connect();
      assert.equal((await second.getDataset('before'))?.name, 'before');
      await second.createDataset({ name: 'from-second' });
      assert.equal((await store.searchDatasets()).count, 2);
      await ns.recordSchemaVersion(9999);
      await assert.rejects(ns.connect(), /schema version 9999, newer than this labld/);
    });

    test('ready answers while open', async () => {
      await store.ready();
    });

    test('random dataset and resource operations agree with a simple model', async () => {
      await storeModelProperty(store);
    });
  });
}
