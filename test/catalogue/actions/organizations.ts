// Organizations through the Action API, on either catalogue store: CKAN 2.10's actions, and the
// rights a member's role in the owning organization gives on its datasets (doc/authorization.rst:
// member reads its private datasets, editor also changes and deletes them, admin also manages
// its members). Expected values are written here from CKAN's documentation, not taken from a run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAction } from '../../../lib/catalogue/actions/index.ts';
import { person, refused, type Catalogue, type Person } from './support.ts';

type Dict = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function organizationSuite(label: string, fresh: () => Promise<Catalogue>): void {
  let catalogue: Catalogue;
  let root: Person;
  let member: Person;
  let editor: Person;
  let admin: Person;
  let outsider: Person;

  const call = (who: Person | 'anonymous', action: string, params: Dict = {}): Promise<Dict> =>
    runAction(
      catalogue.deps,
      who === 'anonymous' ? { kind: 'anonymous' } : { kind: 'token', hash: who.tokenHash },
      action,
      params,
    ) as Promise<Dict>;

  describe(`organizations: ${label}`, () => {
    before(async () => {
      catalogue = await fresh();
      const { store } = catalogue.deps;
      root = await person(store, 'root', true);
      member = await person(store, 'mia');
      editor = await person(store, 'eddie');
      admin = await person(store, 'ada');
      outsider = await person(store, 'otto');
    });
    after(() => catalogue.dispose());

    it('a sysadmin creates one and is its first admin; others may not; its dict is CKAN’s', async () => {
      const lab = await call(root, 'organization_create', {
        name: 'lab',
        title: 'The Lab',
        description: 'tensile',
      });
      assert.deepEqual(
        [
          lab.name,
          lab.title,
          lab.display_name,
          lab.description,
          lab.type,
          lab.is_organization,
          lab.package_count,
        ],
        ['lab', 'The Lab', 'The Lab', 'tensile', 'organization', true, 0],
      );
      assert.equal((await refused(call(admin, 'organization_create', { name: 'mine' }))).status, 403);
      assert.equal((await refused(call('anonymous', 'organization_create', { name: 'mine' }))).status, 403);
      const taken = await refused(call(root, 'organization_create', { name: 'lab' }));
      assert.deepEqual([taken.status, Object.keys(taken.error).includes('name')], [409, true]);
      const members = await call(root, 'member_list', { id: 'lab' });
      assert.deepEqual(members, [[root.user.id, 'user', 'admin']]);
      // The sysadmin names the members, by organization_member_create and by member_create.
      await call(root, 'organization_member_create', { id: 'lab', username: 'ada', role: 'admin' });
      await call(root, 'organization_member_create', { id: 'lab', username: editor.user.id, role: 'editor' });
      await call(root, 'member_create', {
        id: 'lab',
        object: 'mia',
        object_type: 'user',
        capacity: 'member',
      });
      const roles = (await call(admin, 'member_list', { id: 'lab', object_type: 'user' })) as string[][];
      assert.deepEqual(
        roles.map(([id, type, capacity]) => [id, type, capacity]).sort(),
        [
          [root.user.id, 'user', 'admin'],
          [admin.user.id, 'user', 'admin'],
          [editor.user.id, 'user', 'editor'],
          [member.user.id, 'user', 'member'],
        ].sort(),
      );
      const bad = await refused(
        call(root, 'organization_member_create', { id: 'lab', username: 'mia', role: 'owner' }),
      );
      assert.deepEqual([bad.status, Object.keys(bad.error).includes('capacity')], [409, true]);
    });

    it('datasets: an editor puts one into the organization, a member may not; package_show carries it', async () => {
      const made = await call(editor, 'package_create', { name: 'runs', owner_org: 'lab', private: true });
      const lab = await call('anonymous', 'organization_show', { id: 'lab' });
      assert.equal(made.owner_org, lab.id);
      assert.deepEqual(
        [
          made.organization.id,
          made.organization.name,
          made.organization.title,
          made.organization.is_organization,
        ],
        [lab.id, 'lab', 'The Lab', true],
      );
      await call(editor, 'package_create', { name: 'published', owner_org: lab.id });
      assert.equal(
        (await refused(call(member, 'package_create', { name: 'nope', owner_org: 'lab' }))).status,
        403,
      );
      assert.equal(
        (await refused(call(outsider, 'package_create', { name: 'nope', owner_org: 'lab' }))).status,
        403,
      );
      const missing = await refused(call(editor, 'package_create', { name: 'nope', owner_org: 'nowhere' }));
      assert.deepEqual([missing.status, Object.keys(missing.error).includes('owner_org')], [409, true]);
      assert.equal(await catalogue.deps.store.getDataset('nope'), undefined);
    });

    it('roles through the organization: member reads, editor changes and deletes, admin manages members', async () => {
      // The private dataset: read by every member, not by others.
      for (const who of [member, editor, admin])
        assert.equal((await call(who, 'package_show', { id: 'runs' })).name, 'runs');
      assert.equal((await refused(call(member, 'package_patch', { id: 'runs', notes: 'x' }))).status, 403);
      assert.equal((await call(editor, 'package_patch', { id: 'runs', notes: 'edited' })).notes, 'edited');
      assert.equal((await refused(call(member, 'package_collaborator_list', { id: 'runs' }))).status, 403);
      await call(admin, 'package_collaborator_list', { id: 'runs' });
      assert.equal(
        (
          await refused(
            call(editor, 'organization_member_create', { id: 'lab', username: 'otto', role: 'member' }),
          )
        ).status,
        403,
      );
      assert.equal(
        (await refused(call(editor, 'organization_patch', { id: 'lab', title: 'x' }))).status,
        403,
      );
      assert.equal(
        (await call(admin, 'organization_patch', { id: 'lab', description: 'tensile tests' })).title,
        'The Lab',
      );
      // Made a member, otto reads it; removed, he does not.
      await call(admin, 'organization_member_create', { id: 'lab', username: 'otto', role: 'member' });
      assert.equal((await call(outsider, 'package_show', { id: 'runs' })).name, 'runs');
      await call(admin, 'organization_member_delete', { id: 'lab', username: 'otto' });
      assert.equal((await refused(call(outsider, 'package_show', { id: 'runs' }))).status, 404);
      const gone = await refused(call(admin, 'organization_member_delete', { id: 'lab', username: 'otto' }));
      assert.equal(gone.status, 404);
      // member_delete does the same for a user of an organization.
      await call(admin, 'member_create', {
        id: 'lab',
        object: 'otto',
        object_type: 'user',
        capacity: 'member',
      });
      assert.equal((await call(outsider, 'package_show', { id: 'runs' })).name, 'runs');
      await call(admin, 'member_delete', { id: 'lab', object: 'otto', object_type: 'user' });
      assert.equal((await refused(call(outsider, 'package_show', { id: 'runs' }))).status, 404);
      const wrongKind = await refused(
        call(admin, 'member_delete', { id: 'lab', object: 'runs', object_type: 'package' }),
      );
      assert.deepEqual([wrongKind.status, Object.keys(wrongKind.error).includes('object_type')], [409, true]);
      const throwaway = await call(editor, 'package_create', { name: 'throwaway', owner_org: 'lab' });
      assert.equal(await call(editor, 'package_delete', { id: throwaway.id }), null);
    });

    it('a private dataset of an organization is the same 404 as a missing one to outsiders (issue 25)', async () => {
      for (const who of ['anonymous', outsider] as const) {
        for (const action of ['package_show', 'package_patch', 'package_delete']) {
          const hidden = await refused(call(who, action, { id: 'runs', notes: 'x' }));
          const missing = await refused(call(who, action, { id: 'no-such-set', notes: 'x' }));
          assert.equal(hidden.status, 404, action);
          assert.deepEqual(hidden.error, { ...missing.error, message: hidden.error.message }, action);
          assert.equal(
            hidden.error.message.replace('runs', 'X'),
            missing.error.message.replace('no-such-set', 'X'),
          );
        }
      }
      // Nor do the organization's answers tell of it: neither listed nor counted.
      for (const who of ['anonymous', outsider] as const) {
        const shown = await call(who, 'organization_show', { id: 'lab', include_datasets: true });
        assert.deepEqual([shown.package_count, shown.packages.map((p: Dict) => p.name)], [1, ['published']]);
        assert.equal(shown.users, undefined, 'the member list is for members');
        const listed = await call(who, 'organization_list', { all_fields: true });
        assert.equal(listed.find((o: Dict) => o.name === 'lab').package_count, 1);
        const found = await call(who, 'package_search', { fq: 'organization:lab', include_private: true });
        assert.deepEqual(
          found.results.map((d: Dict) => d.name),
          ['published'],
        );
      }
      assert.equal((await refused(call(outsider, 'member_list', { id: 'lab' }))).status, 403);
      const shown = await call(member, 'organization_show', { id: 'lab', include_datasets: true });
      assert.deepEqual([shown.package_count, shown.users.length], [2, 4]);
    });

    it('package_search: organization: in q and fq, the organization facet, private ones for members', async () => {
      await call(root, 'organization_create', { name: 'archive', title: 'Archive' });
      await call(root, 'package_create', { name: 'old', owner_org: 'archive' });
      await call(root, 'package_create', { name: 'loose' });
      const names = async (who: Person | 'anonymous', params: Dict) =>
        (await call(who, 'package_search', params)).results.map((d: Dict) => d.name).sort();
      assert.deepEqual(await names('anonymous', { q: 'organization:lab' }), ['published']);
      assert.deepEqual(await names(member, { fq: 'organization:lab', include_private: true }), [
        'published',
        'runs',
      ]);
      assert.deepEqual(await names('anonymous', { fq: '-organization:lab' }), ['loose', 'old']);
      assert.deepEqual(await names('anonymous', { fq_list: ['organization:"archive"'] }), ['old']);
      const faceted = await call(member, 'package_search', {
        'facet.field': JSON.stringify(['organization']),
        include_private: true,
      });
      assert.deepEqual(faceted.facets.organization, { lab: 2, archive: 1 });
      assert.deepEqual(faceted.search_facets.organization.items, [
        { name: 'lab', display_name: 'The Lab', count: 2 },
        { name: 'archive', display_name: 'Archive', count: 1 },
      ]);
    });

    it('organization_list (all_fields, sort, limit) and organization_list_for_user by permission', async () => {
      assert.deepEqual(await call('anonymous', 'organization_list'), ['archive', 'lab']);
      assert.deepEqual(await call('anonymous', 'organization_list', { sort: 'name desc', limit: 1 }), [
        'lab',
      ]);
      const bad = await refused(call('anonymous', 'organization_list', { sort: 'package_count' }));
      assert.deepEqual([bad.status, Object.keys(bad.error).includes('sort')], [409, true]);
      const mine = async (who: Person | 'anonymous', permission?: string) =>
        ((await call(who, 'organization_list_for_user', permission ? { permission } : {})) as Dict[]).map(
          (o) => `${o.name}:${o.capacity}`,
        );
      assert.deepEqual(await mine(admin), ['lab:admin']);
      assert.deepEqual(await mine(editor), []);
      assert.deepEqual(await mine(editor, 'create_dataset'), ['lab:editor']);
      assert.deepEqual(await mine(member, 'read'), ['lab:member']);
      assert.deepEqual(await mine(outsider, 'read'), []);
      assert.deepEqual(await mine('anonymous'), []);
      assert.deepEqual(await mine(root), ['archive:admin', 'lab:admin']);
    });

    it('organization_update replaces its fields; organization_delete leaves its datasets unowned', async () => {
      const updated = await call(admin, 'organization_update', { id: 'lab', name: 'lab' });
      assert.deepEqual([updated.title, updated.description], ['', '']);
      assert.equal((await refused(call(editor, 'organization_delete', { id: 'lab' }))).status, 403);
      assert.equal((await refused(call(admin, 'organization_delete', { id: 'archive' }))).status, 403);
      assert.equal(await call(admin, 'organization_delete', { id: 'lab' }), null);
      assert.equal((await refused(call('anonymous', 'organization_show', { id: 'lab' }))).status, 404);
      const left = await call(editor, 'package_show', { id: 'published' });
      assert.deepEqual([left.owner_org, left.organization], [null, null]);
      // The organization's roles went with it: its private dataset is its creator's alone now.
      assert.equal((await refused(call(member, 'package_show', { id: 'runs' }))).status, 404);
      assert.equal((await call(editor, 'package_show', { id: 'runs' })).name, 'runs');
    });
  });
}
