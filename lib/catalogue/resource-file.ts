// The file a catalogue download URL names (`{site}/dataset/<id or name>/resource/<id>/download/…`),
// read from the catalogue's own store with the rights of whoever asks: what the resource page's
// download would give them, never more. lib/sources.ts sends such URLs here instead of over HTTP.
import { notFound } from '../process/errors.ts';
import { ANONYMOUS, resolveViewer, viewerOfUser, type Credential, type Viewer } from './auth/actor.ts';
import { resourceFor } from './actions/context.ts';
import type { CatalogueStore } from './store/contract.ts';

/** A stored file of the catalogue, or the URL a link resource points to (read as any URL). */
export type ResourceFile = { blob: string; fileName: string } | { link: string };

/** Reads the resource `resourceId` of dataset `dataset` (its id or name); errors name `field`. */
export type CatalogueFiles = (dataset: string, resourceId: string, field: string) => Promise<ResourceFile>;

export async function resourceFile(
  store: CatalogueStore,
  viewer: Viewer,
  dataset: string,
  resourceId: string,
  field: string,
): Promise<ResourceFile> {
  const found = await resourceFor(store, viewer, 'resource.read', resourceId, field);
  // The URL's dataset must be the resource's own, as the download route requires.
  if (found.dataset.id !== dataset && found.dataset.name !== dataset) {
    throw notFound(`resource not found: ${resourceId}`, field);
  }
  const { resource } = found;
  if (resource.url_type !== 'upload' || resource.blob_key === null) return { link: resource.url };
  // An upload's `url` is its file name (dicts.ts makes the download URL from it).
  return { blob: resource.blob_key, fileName: resource.url.split('/').pop() || resource.name };
}

/** The catalogue's files as `credential` (a request's token or session, as hashes) may read them. */
export function filesForCredential(store: CatalogueStore, credential: Credential): CatalogueFiles {
  let viewer: Promise<Viewer> | undefined;
  return async (dataset, resourceId, field) =>
    resourceFile(store, await (viewer ??= resolveViewer(store, credential)), dataset, resourceId, field);
}

/** The catalogue's files as user `userId` may read them (the chain, on behalf of an upload's owner). */
export function filesForUser(store: CatalogueStore, userId: string | null): CatalogueFiles {
  let viewer: Promise<Viewer> | undefined;
  return async (dataset, resourceId, field) => {
    viewer ??= userId === null ? resolveViewer(store, ANONYMOUS) : viewerOfUser(store, userId);
    return resourceFile(store, await viewer, dataset, resourceId, field);
  };
}
