// What every action is handed, and the look-ups they share: the dataset a request names (and
// whether the viewer may see it), as the target `demand` decides on.
import type { BlobStore } from '../../blobs/blob-store.ts';
import type { Datastore } from '../../datastore/contract.ts';
import { notFound } from '../../process/errors.ts';
import type { Viewer } from '../auth/actor.ts';
import type { DatasetTarget } from '../auth/authorize.ts';
import type { Dataset, Resource } from '../model.ts';
import type { CatalogueStore } from '../store/contract.ts';
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

export function targetOf(dataset: Dataset): DatasetTarget {
  return { id: dataset.id, private: dataset.private, ownerId: dataset.creator_user_id ?? undefined };
}

/** The dataset by id or name; not-found in CKAN's words when there is none. */
export async function datasetOf(store: CatalogueStore, idOrName: string, field = 'id'): Promise<Dataset> {
  const dataset = await store.getDataset(idOrName);
  if (!dataset) throw notFound(`dataset not found: ${idOrName}`, field);
  return dataset;
}

/** A resource and its dataset. */
export async function resourceOf(
  store: CatalogueStore,
  id: string,
  field = 'id',
): Promise<{ resource: Resource; dataset: Dataset }> {
  const resource = await store.getResource(id);
  if (!resource) throw notFound(`resource not found: ${id}`, field);
  return { resource, dataset: await datasetOf(store, resource.package_id, field) };
}
