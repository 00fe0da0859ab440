// The catalogue store conformance suite: written against the contract only, run once per
// implementation. A test file supplies an environment that hands out isolated namespaces (a
// temporary data directory, a PostgreSQL schema).
import { describe, test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogueStore } from '../../lib/catalogue/store/contract.ts';
import type { Resource } from '../../lib/catalogue/model.ts';
import { rejection } from '../support/client-error.ts';
import { storeModelProperty } from './store-model.ts';
import { accountConformance } from './store-conformance-accounts.ts';
import { requestConformance } from './store-conformance-requests.ts';
import { pageConformance } from './store-conformance-page.ts';
import { organizationConformance } from './store-conformance-organizations.ts';

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
  /**
   * Two connections of one thread may each hold a transaction open (PostgreSQL); node:sqlite's
   * second one blocks the thread while it waits for the first's lock, so none is tried there.
   */
  concurrentConnections?: boolean;
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

/** A fresh namespace and a store on it around each test of the enclosing describe. */
export function freshStore(env: CatalogueEnvironment): { ns: CatalogueNamespace; store: CatalogueStore } {
  const t = {} as { ns: CatalogueNamespace; store: CatalogueStore };
  beforeEach(async () => {
    t.ns = await env.fresh();
    t.store = await t.ns.connect();
  });
  afterEach(() => t.ns.dispose());
  return t;
}

const link = (name: string, extra: Partial<Resource> = {}) => ({
  name,
  url: `https://files.example.org/${name}`,
  url_type: 'link' as const,
  ...extra,
});

export function catalogueStoreConformance(env: CatalogueEnvironment): void {
  describe(`Catalogue store conformance: ${env.name}`, () => {
    const t = freshStore(env);

    test('a dataset is created with defaults and found by id and by name', async () => {
      const owner = await t.store.createUser({ name: 'ada' });
      const d = await t.store.createDataset({
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
          owner_org: null,
          organization: null,
          author: '',
          author_email: '',
          maintainer: '',
          maintainer_email: '',
          version: '',
          url: '',
          license_id: '',
          tags: [],
          extras: [],
        },
      );
      assert.equal(d.metadata_created, d.metadata_modified);
      assert.ok(!Number.isNaN(Date.parse(d.metadata_created)));
      assert.deepEqual(await t.store.getDataset(d.id), d);
      assert.deepEqual(await t.store.getDataset('tensile-tests'), d);
      assert.equal(await t.store.getDataset('absent'), undefined);
    });

    test('dataset names follow CKAN rules and are unique', async () => {
      for (const name of ['a', 'Upper', 'with space', 'x'.repeat(101), 'dot.ted', '']) {
        const e = await rejection(t.store.createDataset({ name }));
        assert.equal(e.kind, 'invalid', name);
        assert.equal(e.field, 'name');
      }
      await t.store.createDataset({ name: 'ok_name-2' });
      await t.store.createDataset({ name: 'x'.repeat(100) });
      const taken = await rejection(t.store.createDataset({ name: 'ok_name-2' }));
      assert.deepEqual([taken.kind, taken.field], ['conflict', 'name']);
      const orphan = await rejection(
        t.store.createDataset({ name: 'orphan', creator_user_id: 'no-such-user' }),
      );
      assert.deepEqual([orphan.kind, orphan.field], ['not-found', 'creator_user_id']);
      const other = await t.store.createDataset({ name: 'other' });
      const renamed = await rejection(t.store.patchDataset(other.id, { name: 'ok_name-2' }));
      assert.deepEqual([renamed.kind, renamed.field], ['conflict', 'name']);
      assert.equal((await t.store.getDataset(other.id))?.name, 'other');
    });

    test('update replaces the fields, patch changes only those given', async () => {
      const d = await t.store.createDataset({ name: 'd1', title: 'T', notes: 'N', private: true });
      const patched = await t.store.patchDataset('d1', { notes: 'new notes' });
      assert.deepEqual([patched.title, patched.notes, patched.private], ['T', 'new notes', true]);
      assert.ok(patched.metadata_modified >= d.metadata_modified);
      assert.equal(patched.metadata_created, d.metadata_created);
      const updated = await t.store.updateDataset(d.id, { name: 'd1-renamed', title: 'T2' });
      assert.deepEqual(
        [updated.name, updated.title, updated.notes, updated.private],
        ['d1-renamed', 'T2', '', false],
      );
      assert.equal(await t.store.getDataset('d1'), undefined);
      const missing = await rejection(t.store.patchDataset('nope', { title: 'x' }));
      assert.equal(missing.kind, 'not-found');
      assert.equal((await rejection(t.store.deleteDataset('nope'))).kind, 'not-found');
    });

    test('search matches every word in name, title or notes, pages, and counts the total', async () => {
      for (let i = 0; i < 25; i++) {
        await t.store.createDataset({
          name: `set-${String(i).padStart(2, '0')}`,
          title: i % 2 ? 'Tensile Steel' : 'Hardness',
          notes: i % 5 === 0 ? 'Brinell 100%' : '',
        });
      }
      const page1 = await t.store.searchDatasets({ q: 'steel', limit: 5 });
      assert.equal(page1.count, 12);
      assert.deepEqual(
        page1.results.map((d) => d.name),
        ['set-01', 'set-03', 'set-05', 'set-07', 'set-09'],
      );
      const page3 = await t.store.searchDatasets({ q: 'steel', limit: 5, offset: 10 });
      assert.deepEqual(
        page3.results.map((d) => d.name),
        ['set-21', 'set-23'],
      );
      assert.equal((await t.store.searchDatasets({ q: 'TENSILE set-1' })).count, 5);
      assert.equal((await t.store.searchDatasets({ q: 'brinell hardness' })).count, 3);
      // LIKE wildcards in q are literal characters.
      assert.equal((await t.store.searchDatasets({ q: '100%' })).count, 5);
      assert.equal((await t.store.searchDatasets({ q: '%' })).count, 5);
      assert.equal((await t.store.searchDatasets({ q: 'set_0' })).count, 0);
      assert.equal((await t.store.searchDatasets()).count, 25);
      await t.store.createDataset({ name: 'umlaut', title: 'ÄRGER mit Öl' });
      assert.equal((await t.store.searchDatasets({ q: 'ärger öl' })).count, 1);
      await t.store.deleteDataset('umlaut');
      assert.equal((await t.store.searchDatasets({ limit: 0 })).results.length, 0);
      const latest = await t.store.patchDataset('set-03', { notes: 'touched' });
      const recent = await t.store.searchDatasets({ sort: 'metadata_modified desc', limit: 1 });
      assert.equal(recent.results[0]?.id, latest.id);
      for (const bad of [{ limit: -1 }, { limit: 1001 }, { limit: 1.5 }, { offset: -1 }]) {
        const e = await rejection(t.store.searchDatasets(bad));
        assert.equal(e.kind, 'invalid');
        assert.equal(e.field, Object.keys(bad)[0]);
      }
      const sort = await rejection(
        t.store.searchDatasets({ sort: 'name; DROP TABLE packages' as 'name asc' }),
      );
      assert.deepEqual([sort.kind, sort.field], ['invalid', 'sort']);
    });

    test('private datasets are listed for their members, or for all when asked', async () => {
      const ada = await t.store.createUser({ name: 'ada' });
      const bob = await t.store.createUser({ name: 'bob' });
      await t.store.createDataset({ name: 'public-one' });
      const secret = await t.store.createDataset({ name: 'secret', private: true });
      await t.store.createDataset({ name: 'secret-two', private: true });
      await t.store.setRole(ada.id, secret.id, 'reader');
      const names = async (q: Parameters<CatalogueStore['searchDatasets']>[0]) =>
        (await t.store.searchDatasets(q)).results.map((d) => d.name);
      assert.deepEqual(await names({}), ['public-one']);
      assert.deepEqual(await names({ includePrivateFor: ada.id }), ['public-one', 'secret']);
      assert.deepEqual(await names({ includePrivateFor: bob.id }), ['public-one']);
      assert.deepEqual(await names({ includePrivateFor: 'all' }), ['public-one', 'secret', 'secret-two']);
      assert.equal((await t.store.searchDatasets({ includePrivateFor: ada.id, q: 'secret' })).count, 1);
      assert.deepEqual(
        (await t.store.listDatasets({ includePrivateFor: 'all', limit: 2, offset: 1 })).map((d) => d.name),
        ['secret', 'secret-two'],
      );
    });

    test('resources are created in order, updated, listed and deleted', async () => {
      const ada = await t.store.createUser({ name: 'ada' });
      const d = await t.store.createDataset({ name: 'ds' });
      const csv = await t.store.createResource('ds', {
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
      const page = await t.store.createResource(d.id, link('page'));
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
      assert.deepEqual(await t.store.getResource(csv.id), csv);
      const changed = await t.store.updateResource(csv.id, { description: 'raw data', size: 12 });
      assert.deepEqual(
        [changed.description, changed.size, changed.name, changed.created],
        ['raw data', 12, 'data.csv', csv.created],
      );
      assert.ok(changed.last_modified >= csv.last_modified);
      assert.deepEqual(
        (await t.store.listResources('ds')).map((r) => r.name),
        ['data.csv', 'page'],
      );
      await t.store.deleteResource(page.id);
      assert.equal(await t.store.getResource(page.id), undefined);
      assert.equal((await rejection(t.store.deleteResource(page.id))).kind, 'not-found');
      assert.equal((await rejection(t.store.updateResource(page.id, { name: 'x' }))).kind, 'not-found');
      const third = await t.store.createResource('ds', link('third'));
      assert.equal(third.position, 1);
      const none = await rejection(t.store.createResource('absent', link('x')));
      assert.deepEqual([none.kind, none.field], ['not-found', 'package_id']);
      const badType = await rejection(t.store.createResource('ds', { name: 'x', url_type: 'ftp' as 'link' }));
      assert.deepEqual([badType.kind, badType.field], ['invalid', 'url_type']);
      const nobody = await rejection(
        t.store.createResource('ds', { name: 'x', creator_user_id: 'no-such-user' }),
      );
      assert.deepEqual([nobody.kind, nobody.field], ['not-found', 'creator_user_id']);
      const badSize = await rejection(t.store.createResource('ds', { name: 'x', size: -1 }));
      assert.deepEqual([badSize.kind, badSize.field], ['invalid', 'size']);
      assert.equal((await t.store.listResources('ds')).length, 2);
    });

    test('a derived resource replaces the one of the same source and step in place', async () => {
      const d = await t.store.createDataset({ name: 'chain' });
      const csv = await t.store.createResource(d.id, link('data.csv'));
      const key = { package_id: d.id, source_resource_id: csv.id, step: 'annotate' };
      const first = await t.store.upsertDerived(key, {
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
      const later = await t.store.createResource(d.id, link('notes.txt'));
      const again = await t.store.upsertDerived(
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
      const ttl = await t.store.upsertDerived(
        { package_id: d.id, source_resource_id: again.id, step: 'convert' },
        { name: 'data.ttl', url_type: 'upload', format: 'text/turtle; charset=utf-8' },
      );
      const other = await t.store.upsertDerived({ ...key, step: 'join' }, { name: 'data-joined.ttl' });
      assert.deepEqual(
        (await t.store.listResources(d.id)).map((r) => [r.name, r.position]),
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
      await Promise.all([1, 2, 3].map((n) => t.store.upsertDerived(key, { name: `race-${n}` })));
      assert.equal((await t.store.listResources(d.id)).length, 5);

      const gone = await t.store.deleteDerivedFrom(csv.id);
      assert.deepEqual(new Set(gone), new Set([first.id, ttl.id, other.id]));
      assert.deepEqual(
        (await t.store.listResources(d.id)).map((r) => r.name),
        ['data.csv', 'notes.txt'],
      );
      assert.deepEqual(await t.store.deleteDerivedFrom(csv.id), []);

      const elsewhere = await t.store.createDataset({ name: 'elsewhere' });
      const wrong = await rejection(
        t.store.upsertDerived(
          { package_id: elsewhere.id, source_resource_id: csv.id, step: 'annotate' },
          { name: 'x' },
        ),
      );
      assert.deepEqual([wrong.kind, wrong.field], ['not-found', 'source_resource_id']);
      const noStep = await rejection(t.store.upsertDerived({ ...key, step: '' }, { name: 'x' }));
      assert.deepEqual([noStep.kind, noStep.field], ['invalid', 'step']);
    });

    test('deleting a dataset deletes its resources, roles and group memberships, not its users', async () => {
      const ada = await t.store.createUser({ name: 'ada' });
      const d = await t.store.createDataset({ name: 'doomed', creator_user_id: ada.id });
      const keep = await t.store.createDataset({ name: 'kept' });
      const r = await t.store.createResource(d.id, link('a'));
      await t.store.createResource(keep.id, link('b'));
      await t.store.setRole(ada.id, d.id, 'admin');
      await t.store.setRole(ada.id, keep.id, 'reader');
      await t.store.createGroup({ name: 'mappings' });
      await t.store.addGroupMember('mappings', d.id);
      await t.store.deleteDataset('doomed');
      assert.equal(await t.store.getDataset(d.id), undefined);
      assert.equal(await t.store.getResource(r.id), undefined);
      assert.deepEqual(
        (await t.store.rolesOfUser(ada.id)).map((m) => m.package_id),
        [keep.id],
      );
      assert.equal((await t.store.getGroup('mappings'))?.package_count, 0);
      assert.equal((await t.store.getUser('ada'))?.id, ada.id);
      assert.equal((await t.store.listResources(keep.id)).length, 1);
      const fresh = await t.store.createDataset({ name: 'doomed' });
      assert.notEqual(fresh.id, d.id);
    });

    test('groups: unique names, members, counts, and the groups of a dataset', async () => {
      const g = await t.store.createGroup({ name: 'mappings', title: 'Mapping library' });
      assert.deepEqual(
        [g.name, g.title, g.description, g.package_count],
        ['mappings', 'Mapping library', '', 0],
      );
      assert.deepEqual([(await rejection(t.store.createGroup({ name: 'mappings' }))).kind], ['conflict']);
      assert.equal((await rejection(t.store.createGroup({ name: 'A B' }))).field, 'name');
      await t.store.createGroup({ name: 'alpha' });
      const d = await t.store.createDataset({ name: 'map-1' });
      await t.store.createDataset({ name: 'map-2' });
      await t.store.addGroupMember('mappings', 'map-1');
      await t.store.addGroupMember(g.id, d.id);
      await t.store.addGroupMember('alpha', 'map-1');
      await t.store.addGroupMember('mappings', 'map-2');
      assert.deepEqual(
        (await t.store.listGroups()).map((x) => [x.name, x.package_count]),
        [
          ['alpha', 1],
          ['mappings', 2],
        ],
      );
      assert.deepEqual(
        (await t.store.getDataset('map-1'))?.groups.map((x) => x.name),
        ['alpha', 'mappings'],
      );
      assert.deepEqual(
        (await t.store.searchDatasets({ group: 'alpha' })).results.map((x) => x.name),
        ['map-1'],
      );
      assert.equal((await t.store.searchDatasets({ group: 'absent' })).count, 0);
      await t.store.removeGroupMember('mappings', 'map-1');
      assert.equal((await t.store.getGroup(g.id))?.package_count, 1);
      assert.equal((await rejection(t.store.addGroupMember('absent', 'map-1'))).field, 'group');
      assert.equal((await rejection(t.store.addGroupMember('alpha', 'absent'))).field, 'package_id');
      assert.equal(await t.store.getGroup('absent'), undefined);
    });

    test('a transaction keeps all of its changes or none', async () => {
      await assert.rejects(
        t.store.transaction(async (tx) => {
          const d = await tx.createDataset({ name: 'half' });
          await tx.createResource(d.id, link('a'));
          throw new Error('stop');
        }),
        /stop/,
      );
      assert.equal(await t.store.getDataset('half'), undefined);
      const kept = await t.store.transaction(async (tx) => {
        const d = await tx.createDataset({ name: 'whole' });
        await tx.createResource(d.id, link('a'));
        return tx.upsertDerived(
          { package_id: d.id, source_resource_id: (await tx.listResources(d.id))[0]!.id, step: 's' },
          { name: 'b' },
        );
      });
      assert.equal((await t.store.listResources('whole')).length, 2);
      assert.equal(kept.name, 'b');
      // Nobody outside sees a transaction half-done: both of its datasets or neither.
      const seen: string[][] = [];
      let open = true;
      const watcher = (async () => {
        while (open) {
          const names = (await t.store.searchDatasets({ q: 'pair' })).results.map((d) => d.name);
          seen.push(names);
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      await t.store.transaction(async (tx) => {
        await tx.createDataset({ name: 'pair-one' });
        for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
        await tx.createDataset({ name: 'pair-two' });
      });
      open = false;
      await watcher;
      assert.ok(seen.length > 0);
      for (const names of seen) assert.ok(names.length !== 1, `saw ${names.join()}`);
      assert.deepEqual(
        (await t.store.searchDatasets({ q: 'pair' })).results.map((d) => d.name),
        ['pair-one', 'pair-two'],
      );
    });

    test('opening again migrates nothing and sees the same data; a newer schema refuses to open', async () => {
      await t.store.createDataset({ name: 'before' });
      const second = await t.ns.connect();
      assert.equal((await second.getDataset('before'))?.name, 'before');
      await second.createDataset({ name: 'from-second' });
      assert.equal((await t.store.searchDatasets()).count, 2);
      await t.ns.recordSchemaVersion(9999);
      await assert.rejects(t.ns.connect(), /schema version 9999, newer than this labld/);
    });

    test('ready answers while open', async () => {
      await t.store.ready();
    });

    test('random dataset and resource operations agree with a simple model', async () => {
      await storeModelProperty(t.store);
    });
  });
  accountConformance(env);
  requestConformance(env);
  pageConformance(env);
  organizationConformance(env);
}
