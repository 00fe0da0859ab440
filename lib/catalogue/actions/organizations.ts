// CKAN's organizations: organization_create/show/list/update/patch/delete,
// organization_list_for_user, organization_member_create/delete and member_list. An
// organization is public (anyone may show and list it); the private datasets it owns and its
// members are not, and are shown only to those who may see them.
import { invalid, notFound } from '../../process/errors.ts';
import { demand, type Action as AuthAction } from '../auth/authorize.ts';
import type { Viewer } from '../auth/actor.ts';
import { checkName, type Organization, type OrganizationChanges, type Role } from '../model.ts';
import type { CatalogueStore } from '../store/contract.ts';
import { privateFilterOf, type Action, type ActionDeps } from './context.ts';
import { showDataset } from './datasets.ts';
import { organizationDict } from './dicts.ts';
import { bool, givenId, integer, list, optional, required, type Params } from './params.ts';

/** CKAN's collaborator capacities: member (read), editor, admin; labld calls member `reader`. */
export function role(capacity: string): Role {
  if (capacity === 'member' || capacity === 'reader') return 'reader';
  if (capacity === 'editor' || capacity === 'admin') return capacity;
  throw invalid(`must be one of member, editor, admin (got ${JSON.stringify(capacity)})`, 'capacity');
}

export const capacityOf = (r: Role) => (r === 'reader' ? 'member' : r);

/** The organization a parameter names, if the viewer may do `action` to it (read: anyone). */
export async function organizationFor(
  store: CatalogueStore,
  viewer: Viewer,
  action: AuthAction,
  ref: string,
  field = 'id',
): Promise<Organization> {
  const organization = await store.getOrganization(ref);
  if (!organization) throw notFound(`organization not found: ${ref}`, field);
  if (action !== 'organization.read') demand(viewer.actor, action, { organizationId: organization.id });
  return organization;
}

/** The datasets it owns that the viewer may see (a private one is counted only for its readers). */
function visibleIn(deps: ActionDeps, viewer: Viewer, organization: Organization, limit = 1000) {
  return deps.store.searchDatasets({
    where: { field: 'owner_org', value: organization.id, match: 'word' },
    limit,
    ...privateFilterOf(viewer),
  });
}

/** The member list is the members' and sysadmins' (labld's users are not listed to the internet). */
function mayListMembers(viewer: Viewer, organization: Organization): boolean {
  const actor = viewer.actor;
  return actor !== 'anonymous' && (actor.sysadmin || actor.orgRoles?.get(organization.id) !== undefined);
}

async function users(deps: ActionDeps, organization: Organization) {
  const members = await deps.store.membersOfOrganization(organization.id);
  return Promise.all(
    members.map(async (m) => {
      const user = await deps.store.getUser(m.user_id);
      return {
        id: m.user_id,
        name: user?.name ?? '',
        display_name: user?.fullname || user?.name || '',
        capacity: capacityOf(m.role),
      };
    }),
  );
}

function fields(params: Params): OrganizationChanges {
  const given: OrganizationChanges = {};
  if (params.name !== undefined) given.name = checkName(required(params, 'name'));
  for (const key of ['title', 'description', 'image_url'] as const) {
    if (params[key] !== undefined) given[key] = optional(params, key) ?? '';
  }
  return given;
}

/** CKAN's `users: [{name, capacity}]` on a create or update. */
function usersGiven(params: Params): { ref: string; role: Role }[] | undefined {
  return list(params, 'users')?.map((u) => {
    const entry = (typeof u === 'object' && u !== null ? u : {}) as Params;
    return { ref: required(entry, 'name', 'id'), role: role(optional(entry, 'capacity') ?? 'member') };
  });
}

const organizationCreate: Action = async (deps, viewer, params) => {
  demand(viewer.actor, 'organization.create');
  const given = { ...fields(params), name: checkName(required(params, 'name')), ...givenId(params) };
  const members = usersGiven(params) ?? [];
  const made = await deps.store.transaction(async (tx) => {
    const organization = await tx.createOrganization(given);
    // CKAN: whoever makes an organization is its first admin.
    if (viewer.user) await tx.setOrganizationRole(viewer.user.id, organization.id, 'admin');
    for (const m of members) await tx.setOrganizationRole(m.ref, organization.id, m.role);
    return organization;
  });
  return organizationDict(made, 0);
};

/** With `include_datasets` its datasets the viewer may see; `users` for its members and sysadmins. */
const organizationShow: Action = async (deps, viewer, params) => {
  const organization = await organizationFor(deps.store, viewer, 'organization.read', required(params, 'id'));
  const visible = await visibleIn(deps, viewer, organization);
  const dict: Record<string, unknown> = organizationDict(organization, visible.count);
  if (bool(params, 'include_users') !== false && mayListMembers(viewer, organization)) {
    dict.users = await users(deps, organization);
  }
  if (bool(params, 'include_datasets') === true) {
    dict.packages = await Promise.all(visible.results.map((d) => showDataset(deps, d)));
  }
  return dict;
};

const SORTS = new Set(['name', 'name asc', 'name desc', 'title', 'title asc', 'title desc']);

const organizationList: Action = async (deps, viewer, params) => {
  demand(viewer.actor, 'organization.read');
  const limit = integer(params, 'limit', 1000, 0, 1000);
  const offset = integer(params, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const sort = (optional(params, 'sort') ?? 'name asc').trim().toLowerCase();
  if (!SORTS.has(sort)) throw invalid(`must be one of ${[...SORTS].join(', ')}`, 'sort');
  const wanted = list(params, 'organizations')?.map(String);
  const all = (await deps.store.listOrganizations()).filter((o) => !wanted || wanted.includes(o.name));
  const key = sort.startsWith('title') ? (o: Organization) => o.title || o.name : (o: Organization) => o.name;
  all.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (sort.endsWith('desc')) all.reverse();
  const page = all.slice(offset, offset + limit);
  if (bool(params, 'all_fields') !== true) return page.map((o) => o.name);
  return Promise.all(page.map(async (o) => organizationDict(o, (await visibleIn(deps, viewer, o, 0)).count)));
};

async function updateOrPatch(deps: ActionDeps, viewer: Viewer, params: Params, patch: boolean) {
  const organization = await organizationFor(
    deps.store,
    viewer,
    'organization.update',
    required(params, 'id'),
  );
  const given = fields(params);
  const changes: OrganizationChanges = patch
    ? given
    : { title: '', description: '', image_url: '', ...given, name: checkName(required(params, 'name')) };
  const members = usersGiven(params);
  const updated = await deps.store.transaction(async (tx) => {
    const changed = await tx.patchOrganization(organization.id, changes);
    if (members !== undefined) {
      // CKAN's update replaces the member list with `users` as given.
      for (const m of await tx.membersOfOrganization(changed.id)) {
        if (!members.some((g) => g.ref === m.user_id)) await tx.removeOrganizationRole(m.user_id, changed.id);
      }
      for (const m of members) await tx.setOrganizationRole(m.ref, changed.id, m.role);
    }
    return changed;
  });
  return organizationDict(updated, (await visibleIn(deps, viewer, updated, 0)).count);
}

const organizationDelete: Action = async (deps, viewer, params) => {
  const organization = await organizationFor(
    deps.store,
    viewer,
    'organization.delete',
    required(params, 'id'),
  );
  await deps.store.deleteOrganization(organization.id);
  return null;
};

/** CKAN's permissions: manage_group (admin), create_dataset/update_dataset/delete_dataset (editor), read (member). */
const PERMISSION: Record<string, Role> = {
  manage_group: 'admin',
  create_dataset: 'editor',
  update_dataset: 'editor',
  delete_dataset: 'editor',
  read: 'reader',
};
const RANK: Record<Role, number> = { reader: 1, editor: 2, admin: 3 };

/** The organizations the caller (or, for a sysadmin, the user named by `id`) has `permission` in. */
const organizationListForUser: Action = async (deps, viewer, params) => {
  const permission = optional(params, 'permission') ?? 'manage_group';
  const needed = PERMISSION[permission];
  if (needed === undefined)
    throw invalid(`must be one of ${Object.keys(PERMISSION).join(', ')}`, 'permission');
  if (viewer.user === undefined) return [];
  const ref = optional(params, 'id');
  const user = ref === undefined ? viewer.user : await deps.store.getUser(ref);
  if (!user) throw notFound(`user not found: ${ref}`, 'id');
  if (user.id !== viewer.user.id) demand(viewer.actor, 'user.update', { userId: user.id });
  const roles = new Map(
    (await deps.store.organizationRolesOfUser(user.id)).map((m) => [m.organization_id, m.role]),
  );
  const counted = bool(params, 'include_dataset_count') === true;
  const all = await deps.store.listOrganizations();
  const mine = all.filter((o) => {
    const held = roles.get(o.id);
    return user.sysadmin || (held !== undefined && RANK[held] >= RANK[needed]);
  });
  return Promise.all(
    mine.map(async (o) => ({
      ...organizationDict(o, counted ? (await visibleIn(deps, viewer, o, 0)).count : 0),
      capacity: user.sysadmin ? 'admin' : capacityOf(roles.get(o.id)!),
    })),
  );
};

function memberDict(organization: Organization, userId: string, r: Role) {
  return {
    group_id: organization.id,
    table_name: 'user',
    table_id: userId,
    capacity: capacityOf(r),
    state: 'active',
  };
}

/** CKAN's organization_member_create: `username` (name or id) gets `role` (member, editor, admin). */
export async function addMember(
  deps: ActionDeps,
  viewer: Viewer,
  orgRef: string,
  userRef: string,
  capacity: string,
) {
  const organization = await organizationFor(deps.store, viewer, 'organization.member.manage', orgRef);
  const r = role(capacity);
  const user = await deps.store.getUser(userRef);
  if (!user) throw notFound(`user not found: ${userRef}`, 'username');
  await deps.store.setOrganizationRole(user.id, organization.id, r);
  return memberDict(organization, user.id, r);
}

const organizationMemberCreate: Action = (deps, viewer, params) =>
  addMember(deps, viewer, required(params, 'id'), required(params, 'username'), required(params, 'role'));

/** CKAN's organization_member_delete: the user (name or id) is no longer a member. */
export async function removeMember(deps: ActionDeps, viewer: Viewer, orgRef: string, userRef: string) {
  const organization = await organizationFor(deps.store, viewer, 'organization.member.manage', orgRef);
  const user = await deps.store.getUser(userRef);
  const members = await deps.store.membersOfOrganization(organization.id);
  if (!user || !members.some((m) => m.user_id === user.id)) {
    throw notFound(`user ${userRef} is not a member of this organization`, 'username');
  }
  await deps.store.removeOrganizationRole(user.id, organization.id);
  return null;
}

const organizationMemberDelete: Action = (deps, viewer, params) =>
  removeMember(deps, viewer, required(params, 'id'), required(params, 'username', 'user_id'));

/**
 * CKAN's member_list of an organization: `[id, type, capacity]` triples, users (for its members
 * and sysadmins) and the datasets it owns that the caller may see.
 */
export async function organizationMembers(deps: ActionDeps, viewer: Viewer, params: Params) {
  const organization = await organizationFor(
    deps.store,
    viewer,
    'organization.member.list',
    required(params, 'id'),
  );
  const type = optional(params, 'object_type');
  if (type !== undefined && type !== 'user' && type !== 'package') {
    throw invalid('must be user or package', 'object_type');
  }
  const capacity = optional(params, 'capacity');
  const only = capacity === undefined ? undefined : role(capacity);
  const triples: [string, string, string][] = [];
  if (type !== 'package') {
    for (const m of await deps.store.membersOfOrganization(organization.id)) {
      if (only === undefined || m.role === only) triples.push([m.user_id, 'user', capacityOf(m.role)]);
    }
  }
  if (type !== 'user' && only === undefined) {
    for (const d of (await visibleIn(deps, viewer, organization)).results)
      triples.push([d.id, 'package', 'organization']);
  }
  return triples;
}

export const organizationActions = {
  organization_create: organizationCreate,
  organization_show: organizationShow,
  organization_list: organizationList,
  organization_update: ((deps, viewer, params) => updateOrPatch(deps, viewer, params, false)) as Action,
  organization_patch: ((deps, viewer, params) => updateOrPatch(deps, viewer, params, true)) as Action,
  organization_delete: organizationDelete,
  organization_list_for_user: organizationListForUser,
  organization_member_create: organizationMemberCreate,
  organization_member_delete: organizationMemberDelete,
};
