// What every action is handed, and the look-up they share: the dataset a request names, with
// `demand` asked about it (the one authorization of a dataset action).
import type { BlobStore } from '../../blobs/blob-store.ts';
import type { Datastore } from '../../datastore/contract.ts';
import { isDomainError, notFound, type DomainError } from '../../process/errors.ts';
import type { Viewer } from '../auth/actor.ts';
import { demand, type Action as AuthAction, type DatasetTarget } from '../auth/authorize.ts';
import type { Dataset, Resource } from '../model.ts';
import type { CatalogueStore, DatasetPage, PrivateFilter } from '../store/contract.ts';
import type { StoredUpload } from '../../contracts/catalogue.ts';

export interface ActionDeps {
  store: CatalogueStore;
  datastore: Datastore;
  blobs: BlobStore;
  /** Public URL of labld without a trailing slash: resource and link URLs are absolute, as CKAN's. */
  siteUrl: string;
}

/** What the gateway adds to the parameters: an upload it stored (never a client's field). */
export interface ActionExtras {
  upload?: StoredUpload;
}

export type Action = (
  deps: ActionDeps,
  viewer: Viewer,
  params: Record<string, unknown>,
  extras: ActionExtras,
) => Promise<unknown>;

/** The private datasets a listing for `viewer` includes: those they may read (a sysadmin: all). */
export function privateFilterOf(viewer: Viewer): PrivateFilter {
  const actor = viewer.actor;
  return actor === 'anonymous' ? {} : { includePrivateFor: actor.sysadmin ? 'all' : actor.userId };
}

export function targetOf(dataset: Dataset): DatasetTarget {
  return {
    id: dataset.id,
    private: dataset.private,
    ownerId: dataset.creator_user_id ?? undefined,
    ownerOrg: dataset.owner_org ?? undefined,
  };
}

/**
 * `demand` on a dataset, with a hidden one (a private dataset the viewer may not see) refused in
 * the same words as one that does not exist — the caller's own reference, never the dataset's id.
 */
function demandOn(viewer: Viewer, action: AuthAction, dataset: Dataset, missing: () => DomainError): void {
  try {
    demand(viewer.actor, action, targetOf(dataset));
  } catch (error) {
    throw isDomainError(error) && error.kind === 'not-found' ? missing() : error;
  }
}

/** The dataset by id or name, if the viewer may do `action` to it. */
export async function datasetFor(
  store: CatalogueStore,
  viewer: Viewer,
  action: AuthAction,
  idOrName: string,
  field = 'id',
): Promise<Dataset> {
  const missing = () => notFound(`dataset not found: ${idOrName}`, field);
  const dataset = await store.getDataset(idOrName);
  if (!dataset) throw missing();
  demandOn(viewer, action, dataset, missing);
  return dataset;
}

/** What the dataset's page shows (DatasetPage), in one read of the store, if the viewer may read it. */
export async function datasetPageFor(
  store: CatalogueStore,
  viewer: Viewer,
  idOrName: string,
): Promise<DatasetPage> {
  const missing = () => notFound(`dataset not found: ${idOrName}`, 'id');
  const page = await store.datasetPage(idOrName);
  if (!page) throw missing();
  demandOn(viewer, 'dataset.read', page.dataset, missing);
  return page;
}

/** A resource and its dataset, if the viewer may do `action` to the dataset. */
export async function resourceFor(
  store: CatalogueStore,
  viewer: Viewer,
  action: AuthAction,
  id: string,
  field = 'id',
): Promise<{ resource: Resource; dataset: Dataset }> {
  const missing = () => notFound(`resource not found: ${id}`, field);
  const resource = await store.getResource(id);
  const dataset = resource && (await store.getDataset(resource.package_id));
  if (!resource || !dataset) throw missing();
  demandOn(viewer, action, dataset, missing);
  return { resource, dataset };
}
