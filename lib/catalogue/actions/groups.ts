// Groups (the `mappings` library) and members: group_create/list/show, member_create (a dataset
// into a group) and package_collaborator_* (a user's role on a dataset). labld has no
// organisations, so CKAN's collaborators are where roles live.
import { invalid, notFound } from '../../process/errors.ts';
import { demand } from '../auth/authorize.ts';
import { checkName, type Membership } from '../model.ts';
import type { Viewer } from '../auth/actor.ts';
import { datasetFor, privateFilterOf, type Action, type ActionDeps } from './context.ts';
import { ckanTime, groupDict } from './dicts.ts';
import { bool, integer, optional, required } from './params.ts';
import { showDataset } from './datasets.ts';
import { addMember, capacityOf, organizationMembers, removeMember, role } from './organizations.ts';
import { reselectWaiting } from './chain-replay.ts';
import { isMappingFile, mappingGroup } from '../mapping-library.ts';

const groupCreate: Action = async (deps, viewer, params) => {
  demand(viewer.actor, 'group.create');
  const group = await deps.store.createGroup({
    name: checkName(required(params, 'name')),
    title: optional(params, 'title') ?? '',
    description: optional(params, 'description') ?? '',
  });
  return groupDict(group);
};

/** CKAN's group_list: names, or dicts with `all_fields`. */
const groupList: Action = async (deps, viewer, params) => {
  demand(viewer.actor, 'group.read');
  const allFields = bool(params, 'all_fields') === true;
  const limit = integer(params, 'limit', 1000, 0, 1000);
  const offset = integer(params, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const groups = (await deps.store.listGroups()).slice(offset, offset + limit);
  if (!allFields) return groups.map((g) => g.name);
  // Counted as group_show counts: the store's count would include private datasets.
  return Promise.all(
    groups.map(async (g) => ({
      ...groupDict(g),
      package_count: (await visibleIn(deps, viewer, g.id)).count,
    })),
  );
};

/** The datasets of a group the viewer may see. */
function visibleIn(deps: ActionDeps, viewer: Viewer, groupId: string) {
  return deps.store.searchDatasets({ group: groupId, limit: 1000, ...privateFilterOf(viewer) });
}

/**
 * group_show; with `include_datasets` its datasets the viewer may see (CKAN 2.9+ leaves them
 * out by default). `package_count` counts those too, so that a private dataset's membership
 * does not show through the number.
 */
const groupShow: Action = async (deps, viewer, params) => {
  demand(viewer.actor, 'group.read');
  const ref = required(params, 'id');
  const group = await deps.store.getGroup(ref);
  if (!group) throw notFound(`group not found: ${ref}`, 'id');
  const visible = await visibleIn(deps, viewer, group.id);
  const dict = { ...groupDict(group), package_count: visible.count };
  if (bool(params, 'include_datasets') !== true) return dict;
  return { ...dict, packages: await Promise.all(visible.results.map((d) => showDataset(deps, d))) };
};

/**
 * CKAN's member_create puts an object into a group: here a dataset (`object_type: package`).
 * CKAN's groups also have user members with capacities; labld's groups are managed by
 * sysadmins only, so user members are refused. Putting a dataset into a group is a change to the
 * dataset (editor), whoever may edit the group in CKAN.
 */
/**
 * What member_create and member_delete name: a user of an organization, or a dataset of a
 * group (CKAN keeps both kinds of membership in one table, told apart by `object_type`).
 */
async function memberOf(deps: ActionDeps, params: Record<string, unknown>) {
  const groupRef = required(params, 'id');
  const objectType = required(params, 'object_type');
  const objectRef = required(params, 'object');
  if (!(await deps.store.getGroup(groupRef)) && (await deps.store.getOrganization(groupRef))) {
    if (objectType !== 'user') {
      throw invalid('an organization takes users here; a dataset joins one by its owner_org', 'object_type');
    }
    return { organization: true, groupRef, objectRef } as const;
  }
  if (objectType !== 'package') {
    throw invalid('only "package" (a dataset) can be put into a group here', 'object_type');
  }
  return { organization: false, groupRef, objectRef } as const;
}

/** The group and the dataset of a group membership, if the viewer may change the dataset's. */
async function groupAndDataset(deps: ActionDeps, viewer: Viewer, groupRef: string, objectRef: string) {
  const dataset = await datasetFor(deps.store, viewer, 'group.membership', objectRef, 'object');
  const group = await deps.store.getGroup(groupRef);
  if (!group) throw notFound(`group not found: ${groupRef}`, 'id');
  return { group, dataset };
}

const memberCreate: Action = async (deps, viewer, params) => {
  const { organization, groupRef, objectRef } = await memberOf(deps, params);
  // An organization's member_create gives a user a role (organization_member_create).
  if (organization) return addMember(deps, viewer, groupRef, objectRef, required(params, 'capacity'));
  const capacity = optional(params, 'capacity') ?? 'public';
  const { group, dataset } = await groupAndDataset(deps, viewer, groupRef, objectRef);
  await deps.store.transaction(async (tx) => {
    await tx.addGroupMember(group.id, dataset.id);
    // A dataset of mappings joins the library: the uploads waiting for one select again.
    if (group.name === mappingGroup() && (await tx.listResources(dataset.id)).some(isMappingFile)) {
      await reselectWaiting(tx);
    }
  });
  return { group_id: group.id, table_name: 'package', table_id: dataset.id, capacity, state: 'active' };
};

/** CKAN's member_delete: a dataset out of a group, or a user out of an organization. */
const memberDelete: Action = async (deps, viewer, params) => {
  const { organization, groupRef, objectRef } = await memberOf(deps, params);
  if (organization) return removeMember(deps, viewer, groupRef, objectRef);
  const { group, dataset } = await groupAndDataset(deps, viewer, groupRef, objectRef);
  await deps.store.removeGroupMember(group.id, dataset.id);
  return null;
};

/** CKAN's member_list: `[id, type, capacity]` of a group's datasets the viewer sees, or an organization's members. */
const memberList: Action = async (deps, viewer, params) => {
  const ref = required(params, 'id');
  const group = await deps.store.getGroup(ref);
  if (!group) return organizationMembers(deps, viewer, params);
  const type = optional(params, 'object_type');
  if (type !== undefined && type !== 'package') throw invalid('a group has datasets only', 'object_type');
  return (await visibleIn(deps, viewer, group.id)).results.map((d) => [d.id, 'package', 'public']);
};

function collaborator(m: Membership, modified: string) {
  return { package_id: m.package_id, user_id: m.user_id, capacity: capacityOf(m.role), modified };
}

const collaboratorCreate: Action = async (deps, viewer, params) => {
  const dataset = await datasetFor(deps.store, viewer, 'member.manage', required(params, 'id'));
  const capacity = role(required(params, 'capacity'));
  const userRef = required(params, 'user_id');
  const user = await deps.store.getUser(userRef);
  if (!user) throw notFound(`user not found: ${userRef}`, 'user_id');
  const membership = await deps.store.setRole(user.id, dataset.id, capacity);
  return collaborator(membership, ckanTime(new Date().toISOString())!);
};

const collaboratorList: Action = async (deps, viewer, params) => {
  const dataset = await datasetFor(deps.store, viewer, 'member.list', required(params, 'id'));
  const wanted = optional(params, 'capacity');
  const only = wanted === undefined ? undefined : role(wanted);
  const modified = ckanTime(dataset.metadata_modified)!;
  return (await deps.store.membersOfDataset(dataset.id))
    .filter((m) => only === undefined || m.role === only)
    .map((m) => collaborator(m, modified));
};

/** Removing the owner's row is allowed; the owner stays its admin (authorize.ts: not orphaned). */
const collaboratorDelete: Action = async (deps, viewer, params) => {
  const dataset = await datasetFor(deps.store, viewer, 'member.manage', required(params, 'id'));
  const userRef = required(params, 'user_id');
  const user = await deps.store.getUser(userRef);
  if (!user || (await deps.store.roleOf(user.id, dataset.id)) === undefined) {
    throw notFound(`user ${userRef} is not a collaborator of this dataset`, 'user_id');
  }
  await deps.store.removeRole(user.id, dataset.id);
  return null;
};

export const groupActions = {
  group_create: groupCreate,
  group_list: groupList,
  group_show: groupShow,
  member_create: memberCreate,
  member_list: memberList,
  member_delete: memberDelete,
  package_collaborator_create: collaboratorCreate,
  package_collaborator_list: collaboratorList,
  package_collaborator_delete: collaboratorDelete,
};
