// The authorization matrix over the Action API: every action × {anonymous, reader, editor,
// admin, other user, sysadmin} × {public, private dataset}, run through `runAction` with the
// actor's API token (as the consumer runs it), against a table written here by hand from the
// rules in lib/catalogue/auth/authorize.ts's header — not computed by the code under test. Each
// case gets datasets of its own, so a write in one case cannot change another's outcome.
// Letters in ACTOR order: Y allowed, U unauthorized (log in), F forbidden, N not found.
import assert from 'node:assert/strict';
import { describe, it, before, after } from 'node:test';
import { randomBytes } from 'node:crypto';
import { ckanError } from '../../../gateways/kit/ckan-errors.ts';
import { runAction } from '../../../lib/catalogue/actions/index.ts';
import { ACTION_NAMES, type ActionName } from '../../../lib/contracts/catalogue.ts';
import { DomainError } from '../../../lib/process/errors.ts';
import { queueStep } from '../../../lib/chain/index.ts';
import { annotateDeadLetter, person, type Catalogue, type Person } from './support.ts';

const ACTORS = ['anonymous', 'reader', 'editor', 'admin', 'other', 'sysadmin'] as const;
type ActorName = (typeof ACTORS)[number];

const READ = { public: 'YYYYYY', private: 'NYYYNY' };
const EDIT = { public: 'UFYYFY', private: 'NFYYNY' };
const ADMIN = { public: 'UFFYFY', private: 'NFFYNY' };
const ANYONE = { public: 'YYYYYY', private: 'YYYYYY' };
const LOGIN = { public: 'UYYYYY', private: 'UYYYYY' };
const SYSADMIN = { public: 'UFFFFY', private: 'UFFFFY' };
// An organization's (the case's own; reader, editor and admin hold those roles in it, the other
// user administers another one): it is public, so the dataset's visibility changes nothing.
const ORG_ADMIN = { public: 'UFFYFY', private: 'UFFYFY' };
const ORG_MEMBER = { public: 'UYYYFY', private: 'UYYYFY' };

/** Per action: the expected letters, and the case's parameters. */
const EXPECTED: Record<ActionName, { public: string; private: string }> = {
  package_create: LOGIN,
  package_show: READ,
  package_update: EDIT,
  package_patch: EDIT,
  package_delete: EDIT,
  package_list: ANYONE,
  package_search: ANYONE,
  tag_list: ANYONE,
  license_list: ANYONE,
  resource_create: EDIT,
  resource_show: READ,
  resource_update: EDIT,
  resource_patch: EDIT,
  resource_delete: EDIT,
  group_create: SYSADMIN,
  group_list: ANYONE,
  group_show: ANYONE,
  member_create: EDIT,
  // A dataset out of the `mappings` group: a change to the dataset, as member_create.
  member_delete: EDIT,
  member_list: ORG_MEMBER,
  organization_create: SYSADMIN,
  organization_show: ANYONE,
  organization_list: ANYONE,
  organization_update: ORG_ADMIN,
  organization_patch: ORG_ADMIN,
  organization_delete: ORG_ADMIN,
  // The caller's own organizations (none for anonymous).
  organization_list_for_user: ANYONE,
  organization_member_create: ORG_ADMIN,
  organization_member_delete: ORG_ADMIN,
  package_collaborator_create: ADMIN,
  package_collaborator_list: ADMIN,
  package_collaborator_delete: ADMIN,
  datastore_create: EDIT,
  datastore_delete: EDIT,
  datastore_search: READ,
  datastore_search_sql: READ,
  datastore_info: READ,
  datastore_upsert: EDIT,
  status_show: ANYONE,
  // Any logged-in user may see another's public profile (the owner's, here).
  user_show: LOGIN,
  user_list: LOGIN,
  help_show: ANYONE,
  // Someone else's tokens (the owner's): only sysadmins.
  api_token_create: SYSADMIN,
  api_token_list: SYSADMIN,
  api_token_revoke: SYSADMIN,
  labld_resource_download: READ,
  labld_dataset_permissions: READ,
  labld_dataset_page: READ,
  labld_resource_page: READ,
  labld_datastore_plot: READ,
  // The load button: an editor's change to the dataset.
  triplestore_load: EDIT,
  labld_status_show: READ,
  task_status_show: READ,
  labld_chain_retry: EDIT,
  labld_dead_letter_list: ADMIN,
  labld_dead_letter_replay: ADMIN,
  // The site's library: anyone, shown what they may read.
  labld_mapping_library_show: ANYONE,
};

/** The user's own tokens: anyone logged in. */
const OWN_TOKENS = { api_token_create: 'UYYYYY', api_token_list: 'UYYYYY', api_token_revoke: 'UYYYYY' };

interface Case {
  dataset: { id: string; name: string };
  resource: string;
  actor: Person | undefined;
  owner: Person;
  spare: Person;
  /** A token id of the owner, and one of the actor (the owner's for anonymous). */
  ownerToken: string;
  actorToken: string;
  unique: string;
  /** A dead letter of the resource's first step. */
  deadLetter: string;
  /** The case's organization: reader, editor, admin and the spare user (member) are its members. */
  organization: string;
}

const PARAMS: Record<ActionName, (c: Case) => Record<string, unknown>> = {
  package_create: (c) => ({ name: `new-${c.unique}`, title: 'New' }),
  package_show: (c) => ({ id: c.dataset.name }),
  package_update: (c) => ({ id: c.dataset.id, name: c.dataset.name, title: 'Updated' }),
  package_patch: (c) => ({ id: c.dataset.id, notes: 'Patched' }),
  package_delete: (c) => ({ id: c.dataset.id }),
  package_list: () => ({}),
  package_search: () => ({ q: 'matrix', include_private: true }),
  tag_list: () => ({}),
  license_list: () => ({}),
  resource_create: (c) => ({ package_id: c.dataset.id, url: 'https://example.org/more.csv' }),
  resource_show: (c) => ({ id: c.resource }),
  resource_update: (c) => ({ id: c.resource, url: 'https://example.org/other.csv' }),
  resource_patch: (c) => ({ id: c.resource, description: 'patched' }),
  resource_delete: (c) => ({ id: c.resource }),
  group_create: (c) => ({ name: `group-${c.unique}` }),
  group_list: () => ({ all_fields: true }),
  group_show: () => ({ id: 'mappings', include_datasets: true }),
  member_create: (c) => ({
    id: 'mappings',
    object: c.dataset.name,
    object_type: 'package',
    capacity: 'public',
  }),
  member_list: (c) => ({ id: c.organization }),
  member_delete: (c) => ({ id: 'mappings', object: c.dataset.name, object_type: 'package' }),
  organization_create: (c) => ({ name: `made-${c.unique}` }),
  organization_show: (c) => ({ id: c.organization, include_datasets: true }),
  organization_list: () => ({ all_fields: true }),
  organization_update: (c) => ({ id: c.organization, name: c.organization, title: 'Updated' }),
  organization_patch: (c) => ({ id: c.organization, description: 'Patched' }),
  organization_delete: (c) => ({ id: c.organization }),
  organization_list_for_user: () => ({ permission: 'read' }),
  organization_member_create: (c) => ({ id: c.organization, username: c.spare.user.name, role: 'editor' }),
  organization_member_delete: (c) => ({ id: c.organization, username: c.spare.user.name }),
  package_collaborator_create: (c) => ({ id: c.dataset.id, user_id: c.spare.user.name, capacity: 'editor' }),
  package_collaborator_list: (c) => ({ id: c.dataset.id }),
  package_collaborator_delete: (c) => ({ id: c.dataset.id, user_id: c.spare.user.name }),
  datastore_create: (c) => ({
    resource_id: c.resource,
    fields: [{ id: 'force', type: 'numeric' }],
    records: [{ force: 3 }],
  }),
  datastore_delete: (c) => ({ resource_id: c.resource }),
  datastore_search: (c) => ({ resource_id: c.resource, sort: 'force desc' }),
  datastore_search_sql: (c) => ({ sql: `SELECT count(*) AS n FROM "${c.resource}"` }),
  datastore_info: (c) => ({ id: c.resource }),
  datastore_upsert: (c) => ({ resource_id: c.resource, method: 'insert', records: [{ force: 4 }] }),
  status_show: () => ({}),
  user_show: (c) => ({ id: c.owner.user.name }),
  user_list: () => ({}),
  help_show: () => ({ name: 'package_show' }),
  api_token_create: (c) => ({ user: c.owner.user.name, name: 'script' }),
  api_token_list: (c) => ({ user_id: c.owner.user.name }),
  api_token_revoke: (c) => ({ jti: c.ownerToken }),
  labld_resource_download: (c) => ({ id: c.resource }),
  labld_dataset_permissions: (c) => ({ id: c.dataset.name }),
  labld_dataset_page: (c) => ({ id: c.dataset.name }),
  labld_resource_page: (c) => ({ id: c.dataset.name, resource_id: c.resource }),
  labld_datastore_plot: (c) => ({ resource_id: c.resource }),
  triplestore_load: (c) => ({ id: c.dataset.name }),
  labld_status_show: (c) => ({ id: c.dataset.name }),
  task_status_show: (c) => ({ entity_id: c.resource, key: 'annotate' }),
  labld_chain_retry: (c) => ({ resource_id: c.resource }),
  labld_dead_letter_list: (c) => ({ id: c.dataset.name }),
  labld_dead_letter_replay: (c) => ({ id: c.deadLetter }),
  labld_mapping_library_show: () => ({}),
};

const OWN_PARAMS: Record<keyof typeof OWN_TOKENS, (c: Case) => Record<string, unknown>> = {
  api_token_create: (c) => ({ user: (c.actor ?? c.owner).user.name, name: 'mine' }),
  api_token_list: (c) => ({ user_id: (c.actor ?? c.owner).user.name }),
  api_token_revoke: (c) => ({ jti: c.actorToken }),
};

const LETTER = { unauthorized: 'U', forbidden: 'F', 'not-found': 'N' } as Record<string, string>;
const STATUS: Record<string, number> = { U: 403, F: 403, N: 404 };

export function actionMatrix(name: string, fresh: () => Promise<Catalogue>): void {
  describe(`authorization matrix over the Action API: ${name}`, () => {
    let catalogue: Catalogue;
    const people = new Map<ActorName, Person>();
    let owner: Person;
    let spare: Person;

    before(async () => {
      catalogue = await fresh();
      const { store } = catalogue.deps;
      owner = await person(store, 'owner');
      spare = await person(store, 'spare');
      for (const actor of ACTORS) {
        if (actor !== 'anonymous') people.set(actor, await person(store, actor, actor === 'sysadmin'));
      }
      // The other user administers a dataset of their own: roles must not leak across datasets.
      const theirs = await store.createDataset({
        name: 'elsewhere',
        creator_user_id: people.get('other')!.user.id,
      });
      await store.setRole(people.get('other')!.user.id, theirs.id, 'admin');
      const theirOrg = await store.createOrganization({ name: 'elsewhere-org' });
      await store.setOrganizationRole(people.get('other')!.user.id, theirOrg.id, 'admin');
      await store.createGroup({ name: 'mappings', title: 'Mappings' });
    });
    after(() => catalogue?.dispose());

    /** A dataset of the owner's with a resource and its table, the reader, editor and admin on it. */
    async function setUp(actor: ActorName, visibility: 'public' | 'private'): Promise<Case> {
      const { store, datastore } = catalogue.deps;
      const unique = randomBytes(4).toString('hex');
      const dataset = await store.createDataset({
        name: `matrix-${unique}`,
        title: 'matrix',
        private: visibility === 'private',
        creator_user_id: owner.user.id,
      });
      for (const role of ['reader', 'editor', 'admin'] as const) {
        await store.setRole(people.get(role)!.user.id, dataset.id, role);
      }
      await store.setRole(spare.user.id, dataset.id, 'reader');
      const organization = await store.createOrganization({ name: `org-${unique}` });
      for (const role of ['reader', 'editor', 'admin'] as const) {
        await store.setOrganizationRole(people.get(role)!.user.id, organization.id, role);
      }
      await store.setOrganizationRole(spare.user.id, organization.id, 'reader');
      const resource = await store.createResource(dataset.id, {
        name: 'data.csv',
        url: 'https://example.org/data.csv',
      });
      await datastore.create(resource.id, [{ id: 'force', type: 'numeric' }], [{ force: 1 }, { force: 2 }]);
      // Its chain's first step, queued (what task_status_show reads).
      await store.putStepStatus({
        source_resource_id: resource.id,
        package_id: dataset.id,
        status: queueStep(undefined, { step: 'annotate', run: 'r1', at: new Date().toISOString() }),
      });
      const deadLetter = `dl-${unique}`;
      await store.addDeadLetter(annotateDeadLetter(deadLetter, resource, 'r1', 'data.csv'));
      const tokenOf = async (who: Person) =>
        (
          await store.createToken({
            user_id: who.user.id,
            name: unique,
            token_hash: randomBytes(32).toString('hex'),
          })
        ).id;
      const actorPerson = people.get(actor);
      return {
        dataset,
        resource: resource.id,
        actor: actorPerson,
        owner,
        spare,
        ownerToken: await tokenOf(owner),
        actorToken: await tokenOf(actorPerson ?? owner),
        unique,
        deadLetter,
        organization: organization.name,
      };
    }

    async function outcome(c: Case, action: ActionName, params: Record<string, unknown>): Promise<string> {
      const credential = c.actor
        ? { kind: 'token' as const, hash: c.actor.tokenHash }
        : { kind: 'anonymous' as const };
      try {
        await runAction(catalogue.deps, credential, action, params);
        return 'Y';
      } catch (error) {
        if (!(error instanceof DomainError) || !LETTER[error.kind]) throw error;
        const letter = LETTER[error.kind]!;
        // As the Action API answers it: CKAN's status and __type.
        assert.equal(ckanError(error).status, STATUS[letter]);
        return letter;
      }
    }

    for (const action of ACTION_NAMES) {
      for (const visibility of ['public', 'private'] as const) {
        it(`${action} on a ${visibility} dataset: ${EXPECTED[action][visibility]}`, async () => {
          let got = '';
          for (const actor of ACTORS) {
            const c = await setUp(actor, visibility);
            got += await outcome(c, action, PARAMS[action](c));
          }
          assert.equal(got, EXPECTED[action][visibility], ACTORS.join(' '));
        });
      }
    }

    for (const [action, expected] of Object.entries(OWN_TOKENS) as [keyof typeof OWN_TOKENS, string][]) {
      it(`${action} on one's own account: ${expected}`, async () => {
        let got = '';
        for (const actor of ACTORS) {
          const c = await setUp(actor, 'public');
          got += await outcome(c, action, OWN_PARAMS[action](c));
        }
        assert.equal(got, expected, ACTORS.join(' '));
      });
    }

    it('listings show a private dataset to its members and sysadmins only', async () => {
      const c = await setUp('anonymous', 'private');
      await catalogue.deps.store.addGroupMember('mappings', c.dataset.id);
      const seen: string[] = [];
      for (const actor of ACTORS) {
        const who = people.get(actor);
        const credential = who
          ? { kind: 'token' as const, hash: who.tokenHash }
          : { kind: 'anonymous' as const };
        const found = (await runAction(catalogue.deps, credential, 'package_search', {
          q: c.dataset.name,
          include_private: true,
        })) as { count: number };
        const listed = (await runAction(catalogue.deps, credential, 'package_list', {})) as string[];
        const group = (await runAction(catalogue.deps, credential, 'group_show', {
          id: 'mappings',
          include_datasets: true,
        })) as { packages: { name: string }[]; package_count: number };
        const inGroup = group.packages.some((p) => p.name === c.dataset.name);
        // group_list counts as group_show: a private dataset does not show through the number.
        const groups = (await runAction(catalogue.deps, credential, 'group_list', {
          all_fields: true,
        })) as { name: string; package_count: number }[];
        assert.equal(groups.find((g) => g.name === 'mappings')?.package_count, group.package_count, actor);
        seen.push(`${found.count}${listed.includes(c.dataset.name) ? 'L' : '-'}${inGroup ? 'G' : '-'}`);
      }
      // CKAN's package_list never lists private datasets; package_search does with include_private.
      assert.deepEqual(seen, ['0--', '1-G', '1-G', '1-G', '0--', '1-G']);
    });
  });
}
