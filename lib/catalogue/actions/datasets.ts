// package_* actions: datasets as CKAN's Action API creates, shows, changes, deletes, lists and
// searches them. Each reads its parameters (errors name the field), asks `demand` once, then
// acts on the store.
import { authorize, demand, type Action as AuthAction } from '../auth/authorize.ts';
import type { Viewer } from '../auth/actor.ts';
import { checkName, nameUnavailable, type Dataset, type DatasetChanges } from '../model.ts';
import type { CatalogueStore } from '../store/contract.ts';
import { invalid, isDomainError } from '../../process/errors.ts';
import { datasetFor, targetOf, type Action, type ActionDeps } from './context.ts';
import { metadataOf } from './dataset-fields.ts';
import { packageDict } from './dicts.ts';
import { bool, givenId, integer, list, optional, required, type Params } from './params.ts';
import { createLinkResource, dropTables } from './resources.ts';
import { announceSync } from './triplestore-events.ts';

function name(params: Params): string {
  return checkName(required(params, 'name'));
}

/**
 * A store write that names the dataset `name`, with a name taken by another dataset refused as
 * any unavailable name: the store's "already in use" would tell anyone that a dataset holds it,
 * a private one too.
 */
async function naming<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const taken = isDomainError(error) && error.kind === 'conflict' && error.field === 'name';
    throw taken && name !== undefined ? nameUnavailable(name) : error;
  }
}

/** The dataset's fields as a create, update or patch gives them (only those present). */
function changes(params: Params): DatasetChanges {
  const given: DatasetChanges = metadataOf(params);
  // CKAN's owner_org_validator: an empty one is dropped (the owner stays as it was).
  const owner = optional(params, 'owner_org');
  if (owner !== undefined) given.owner_org = owner;
  if (params.name !== undefined) given.name = name(params);
  const title = optional(params, 'title');
  if (title !== undefined || params.title === '') given.title = title ?? '';
  const notes = optional(params, 'notes');
  if (notes !== undefined || params.notes === '') given.notes = notes ?? '';
  const priv = bool(params, 'private');
  if (priv !== undefined) given.private = priv;
  return given;
}

/** Group names or ids from CKAN's `groups: [{name}]` (or `{id}`), or undefined when not given. */
function groupNames(params: Params): string[] | undefined {
  const groups = list(params, 'groups');
  if (groups === undefined) return params.groups === undefined ? undefined : [];
  return groups.map((g) => {
    const ref = typeof g === 'string' ? g : (g as { name?: unknown; id?: unknown } | null)?.name;
    const id = typeof g === 'object' && g !== null ? (g as { id?: unknown }).id : undefined;
    const value = typeof ref === 'string' && ref !== '' ? ref : id;
    if (typeof value !== 'string' || value === '')
      throw invalid('each group needs a name or an id', 'groups');
    return value;
  });
}

/** Puts the dataset in exactly these groups (the caller has the right to change its memberships). */
async function setGroups(tx: CatalogueStore, dataset: Dataset, wanted: string[]): Promise<void> {
  const ids = new Set<string>();
  for (const ref of wanted) {
    const group = await tx.getGroup(ref);
    if (!group) throw invalid(`group ${JSON.stringify(ref)} does not exist`, 'groups');
    ids.add(group.id);
  }
  for (const current of dataset.groups)
    if (!ids.has(current.id)) await tx.removeGroupMember(current.id, dataset.id);
  for (const id of ids) if (!dataset.groups.some((g) => g.id === id)) await tx.addGroupMember(id, dataset.id);
}

export async function showDataset(deps: ActionDeps, dataset: Dataset): Promise<Record<string, unknown>> {
  return packageDict(deps.datastore, deps.siteUrl, dataset, await deps.store.listResources(dataset.id));
}

/**
 * The organization a dataset is to be put into, by id, if the viewer is its editor or admin
 * (CKAN's owner_org_validator); one that does not exist is a Validation Error on owner_org.
 */
async function ownerFor(deps: ActionDeps, viewer: Viewer, ref: string): Promise<string> {
  const organization = await deps.store.getOrganization(ref);
  if (!organization) throw invalid(`organization does not exist: ${ref}`, 'owner_org');
  demand(viewer.actor, 'organization.dataset.create', { organizationId: organization.id });
  return organization.id;
}

const packageCreate: Action = async (deps, viewer, params) => {
  demand(viewer.actor, 'dataset.create');
  const fields = { ...changes(params), name: name(params), ...givenId(params) };
  if (fields.owner_org) fields.owner_org = await ownerFor(deps, viewer, fields.owner_org);
  const groups = groupNames(params);
  const resources = list(params, 'resources') ?? [];
  const creator = viewer.user?.id ?? null;
  const dataset = await deps.store.transaction(async (tx) => {
    const made = await naming(fields.name, () => tx.createDataset({ ...fields, creator_user_id: creator }));
    // The creator administers the dataset (its owner counts as admin anyway; the row makes it visible
    // in package_collaborator_list and survives a change of owner).
    if (creator !== null) await tx.setRole(creator, made.id, 'admin');
    if (groups !== undefined) await setGroups(tx, made, groups);
    for (const [i, resource] of resources.entries()) {
      if (typeof resource !== 'object' || resource === null || Array.isArray(resource)) {
        throw invalid(`resource ${i + 1}: must be an object`, 'resources');
      }
      await createLinkResource(tx, made.id, resource as Params, creator);
    }
    return (await tx.getDataset(made.id))!;
  });
  return showDataset(deps, dataset);
};

const packageShow: Action = async (deps, viewer, params) => {
  const dataset = await datasetFor(deps.store, viewer, 'dataset.read', required(params, 'id', 'name_or_id'));
  return showDataset(deps, dataset);
};

/**
 * package_update replaces the dataset's fields (left out: their defaults), as CKAN's does.
 * `resources` may be given as package_show returned them (a script's show → edit → update);
 * adding or removing resources this way is refused, because resources carry files here: that is
 * resource_create / resource_delete. CKAN would replace the resource list.
 */
async function updateOrPatch(deps: ActionDeps, viewer: Viewer, params: Params, patch: boolean) {
  const dataset = await datasetFor(deps.store, viewer, 'dataset.update', required(params, 'id', 'name'));
  const given = changes(params);
  if (given.owner_org) {
    const owner = await deps.store.getOrganization(given.owner_org);
    // Moving it to another organization needs editor there too.
    given.owner_org =
      owner?.id === dataset.owner_org ? owner.id : await ownerFor(deps, viewer, given.owner_org);
  }
  const groups = groupNames(params);
  const resources = list(params, 'resources');
  if (resources !== undefined) {
    const current = new Set((await deps.store.listResources(dataset.id)).map((r) => r.id));
    const sent = resources.map((r) => (r as { id?: unknown } | null)?.id);
    if (sent.length !== current.size || !sent.every((id) => typeof id === 'string' && current.has(id))) {
      throw invalid(
        'adding or removing resources here is not supported: use resource_create or resource_delete',
        'resources',
      );
    }
  }
  const updated = await deps.store.transaction(async (tx) => {
    if (patch) await naming(given.name, () => tx.patchDataset(dataset.id, given));
    else {
      const renamed = name(params);
      await naming(renamed, () => tx.updateDataset(dataset.id, { ...given, name: renamed }));
    }
    if (groups !== undefined) await setGroups(tx, dataset, groups);
    return (await tx.getDataset(dataset.id))!;
  });
  return showDataset(deps, updated);
}

const packageUpdate: Action = (deps, viewer, params) => updateOrPatch(deps, viewer, params, false);
const packagePatch: Action = (deps, viewer, params) => updateOrPatch(deps, viewer, params, true);

/**
 * CKAN marks a deleted dataset `state: deleted` and keeps it until a sysadmin purges it. labld
 * has no trash: delete removes the dataset with its resources and datastore tables (CKAN's
 * dataset_purge), and package_show answers Not Found after it, as CKAN's does to non-sysadmins.
 */
const packageDelete: Action = async (deps, viewer, params) => {
  const dataset = await datasetFor(deps.store, viewer, 'dataset.delete', required(params, 'id'));
  const resources = await deps.store.listResources(dataset.id);
  await deps.store.transaction(async (tx) => {
    await tx.deleteDataset(dataset.id);
    // Its graphs go too (a sync of a dataset that is gone drops them).
    await announceSync(tx, dataset.id);
  });
  await dropTables(
    deps,
    resources.map((r) => r.id),
  );
  return null;
};

/** CKAN's package_list: the names of the public datasets (private ones are never listed). */
const packageList: Action = async (deps, viewer, params) => {
  demand(viewer.actor, 'dataset.list');
  const limit = integer(params, 'limit', 1000, 0, 1000);
  const offset = integer(params, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  if (limit === 0) return [];
  return (await deps.store.listDatasets({ limit, offset })).map((d) => d.name);
};

/** labld's own: what the viewer may do to a dataset they can read (the pages show only that). */
const datasetPermissions: Action = async (deps, viewer, params) =>
  permissionsOf(viewer, await datasetFor(deps.store, viewer, 'dataset.read', required(params, 'id')));

/** What `viewer` may do to `dataset`, which they may read. */
export function permissionsOf(viewer: Viewer, dataset: Dataset) {
  const may = (action: AuthAction) => authorize(viewer.actor, action, targetOf(dataset)).allowed;
  return {
    id: dataset.id,
    read: true,
    update: may('dataset.update'),
    delete: may('dataset.delete'),
    upload: may('resource.create'),
    manage_members: may('member.manage'),
    load_triplestore: may('triplestore.load'),
    retry_steps: may('chain.retry'),
    dead_letters: may('chain.dead-letters'),
  };
}

export const datasetActions = {
  package_create: packageCreate,
  package_show: packageShow,
  package_update: packageUpdate,
  package_patch: packagePatch,
  package_delete: packageDelete,
  package_list: packageList,
  labld_dataset_permissions: datasetPermissions,
};
