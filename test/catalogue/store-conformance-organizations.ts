// The catalogue store conformance suite, organizations (CKAN's): made, found, changed and
// deleted; members' roles; the datasets they own, in search (organization:, owner_org:, the
// facet) and in the private datasets a member is shown. Run for each environment.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejection } from '../support/client-error.ts';
import { freshStore, type CatalogueEnvironment } from './store-conformance.ts';

const ORG_ID = '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b0a';

export function organizationConformance(env: CatalogueEnvironment): void {
  describe(`Catalogue store conformance, organizations: ${env.name}`, () => {
    const t = freshStore(env);

    test('organizations: unique names, a given id kept, found by id and name, patched, listed', async () => {
      const lab = await t.store.createOrganization({ name: 'lab', title: 'The Lab', id: ORG_ID });
      assert.deepEqual(
        [lab.id, lab.name, lab.title, lab.description, lab.image_url, lab.package_count],
        [ORG_ID, 'lab', 'The Lab', '', '', 0],
      );
      assert.deepEqual(await t.store.getOrganization('lab'), lab);
      assert.deepEqual(await t.store.getOrganization(ORG_ID), lab);
      const taken = await rejection(t.store.createOrganization({ name: 'lab' }));
      assert.deepEqual([taken.kind, taken.field], ['conflict', 'name']);
      const idTaken = await rejection(t.store.createOrganization({ name: 'other', id: ORG_ID }));
      assert.deepEqual([idTaken.kind, idTaken.field], ['conflict', 'id']);
      assert.equal((await rejection(t.store.createOrganization({ name: 'Bad Name' }))).field, 'name');
      // One name for a group or an organization, as in CKAN's one table of both.
      await t.store.createGroup({ name: 'mappings' });
      const asGroup = await rejection(t.store.createOrganization({ name: 'mappings' }));
      assert.deepEqual([asGroup.kind, asGroup.field], ['conflict', 'name']);
      const asOrg = await rejection(t.store.createGroup({ name: 'lab' }));
      assert.deepEqual([asOrg.kind, asOrg.field], ['conflict', 'name']);
      const patched = await t.store.patchOrganization('lab', { description: 'tensile', name: 'the-lab' });
      assert.deepEqual([patched.name, patched.title, patched.description], ['the-lab', 'The Lab', 'tensile']);
      await t.store.createOrganization({ name: 'archive' });
      assert.deepEqual(
        (await t.store.listOrganizations()).map((o) => o.name),
        ['archive', 'the-lab'],
      );
      assert.equal(await t.store.getOrganization('lab'), undefined);
      assert.equal((await rejection(t.store.patchOrganization('nowhere', { title: 'x' }))).kind, 'not-found');
    });

    test("members' roles are set, replaced, read both ways and removed", async () => {
      const ada = await t.store.createUser({ name: 'ada' });
      const bob = await t.store.createUser({ name: 'bob' });
      const lab = await t.store.createOrganization({ name: 'lab' });
      await t.store.setOrganizationRole('ada', 'lab', 'editor');
      await t.store.setOrganizationRole(bob.id, lab.id, 'reader');
      await t.store.setOrganizationRole('ada', 'lab', 'admin');
      assert.deepEqual(
        (await t.store.membersOfOrganization('lab')).map((m) => [m.user_id, m.role]).sort(),
        [
          [ada.id, 'admin'],
          [bob.id, 'reader'],
        ].sort(),
      );
      assert.deepEqual(await t.store.organizationRolesOfUser('ada'), [
        { user_id: ada.id, organization_id: lab.id, role: 'admin' },
      ]);
      await t.store.removeOrganizationRole('bob', 'lab');
      assert.deepEqual(await t.store.organizationRolesOfUser('bob'), []);
      assert.equal(
        (await rejection(t.store.setOrganizationRole('ada', 'lab', 'owner' as never))).kind,
        'invalid',
      );
      assert.equal(
        (await rejection(t.store.setOrganizationRole('nobody', 'lab', 'reader'))).kind,
        'not-found',
      );
      assert.equal(
        (await rejection(t.store.setOrganizationRole('ada', 'nowhere', 'reader'))).kind,
        'not-found',
      );
    });

    test('a dataset owned by an organization: shown with it, found by it, counted, kept unowned when it goes', async () => {
      const ada = await t.store.createUser({ name: 'ada' });
      const bob = await t.store.createUser({ name: 'bob' });
      const lab = await t.store.createOrganization({ name: 'lab', title: 'The Lab' });
      await t.store.createOrganization({ name: 'archive' });
      const open = await t.store.createDataset({ name: 'open', owner_org: 'lab' });
      assert.equal(open.owner_org, lab.id);
      assert.deepEqual(
        open.organization && [open.organization.id, open.organization.name, open.organization.title],
        [lab.id, 'lab', 'The Lab'],
      );
      const hidden = await t.store.createDataset({ name: 'hidden', owner_org: lab.id, private: true });
      await t.store.createDataset({ name: 'loose' });
      await t.store.createDataset({ name: 'moved' });
      assert.equal(
        (await t.store.patchDataset('moved', { owner_org: 'archive' })).organization?.name,
        'archive',
      );
      // An update that does not name the owner keeps it (CKAN drops an empty owner_org).
      assert.equal((await t.store.updateDataset('moved', { name: 'moved' })).organization?.name, 'archive');
      assert.equal(
        (await rejection(t.store.createDataset({ name: 'stray', owner_org: 'nowhere' }))).field,
        'owner_org',
      );
      assert.equal((await t.store.getOrganization('lab'))?.package_count, 2);

      const names = async (query: Parameters<typeof t.store.searchDatasets>[0]) =>
        (await t.store.searchDatasets(query)).results.map((d) => d.name);
      assert.deepEqual(await names({ where: { field: 'organization', value: 'lab', match: 'word' } }), [
        'open',
      ]);
      assert.deepEqual(await names({ where: { field: 'owner_org', value: lab.id, match: 'word' } }), [
        'open',
      ]);
      // A member of the organization, in any role, is shown its private datasets; others are not.
      await t.store.setOrganizationRole(ada.id, lab.id, 'reader');
      const where = { field: 'organization', value: 'lab', match: 'word' } as const;
      assert.deepEqual(await names({ where, includePrivateFor: ada.id }), ['hidden', 'open']);
      assert.deepEqual(await names({ where, includePrivateFor: bob.id }), ['open']);
      const facets = await t.store.searchDatasets({
        includePrivateFor: 'all',
        facets: { fields: ['organization'], limit: 10, mincount: 1 },
      });
      assert.deepEqual(facets.facets?.organization, [
        { name: 'lab', display_name: 'The Lab', count: 2 },
        { name: 'archive', display_name: 'archive', count: 1 },
      ]);

      await t.store.deleteOrganization('lab');
      const left = await t.store.getDataset(hidden.id);
      assert.deepEqual([left?.owner_org, left?.organization, left?.private], [null, null, true]);
      assert.deepEqual(await t.store.organizationRolesOfUser(ada.id), []);
      assert.equal((await rejection(t.store.deleteOrganization('lab'))).kind, 'not-found');
    });
  });
}
