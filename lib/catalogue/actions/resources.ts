// resource_* actions. A resource is a file the gateway stored in the blob store (`upload`,
// CKAN's multipart field) or a link (`url`). Its dataset is the target `demand` decides on.
import { isMediaType } from '../../blobs/served.ts';
import { contentTypeOf } from '../../blobs/published.ts';
import { byteSetting } from '../../process/config.ts';
import { invalid, isDomainError, notFound, tooLarge } from '../../process/errors.ts';
import type { Viewer } from '../auth/actor.ts';
import type { Resource, ResourceChanges, ResourceFields } from '../model.ts';
import type { CatalogueStore } from '../store/contract.ts';
import type { StoredUpload } from '../../contracts/catalogue.ts';
import { datasetFor, resourceFor, type Action, type ActionDeps } from './context.ts';
import { announceDelete, announceUpload } from './chain-events.ts';
import { inLibrary, reselectWaiting } from './chain-replay.ts';
import { announceSync } from './triplestore-events.ts';
import { resourceDict } from './dicts.ts';
import { givenId, optional, required, type Params } from './params.ts';

/**
 * Links a page may show as `href`: web addresses only. CKAN takes any text; a `javascript:` URL
 * would run in the catalogue's pages, so labld refuses what is not http(s) or ftp.
 */
export function webLink(url: string, field: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(`not an absolute URL: ${JSON.stringify(url.slice(0, 200))}`, field);
  }
  if (!['http:', 'https:', 'ftp:'].includes(parsed.protocol)) {
    throw invalid(`must be an http, https or ftp URL (got ${parsed.protocol})`, field);
  }
  return url;
}

function linkUrl(params: Params): string | undefined {
  const url = optional(params, 'url');
  return url === undefined ? undefined : webLink(url, 'url');
}

/** The last segment of a URL or file name: CKAN's default resource name. */
function lastSegment(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || url;
  } catch {
    return url.split('/').pop() ?? url;
  }
}

/** CKAN guesses a format from the extension when none is given (`data.csv` → `CSV`). */
export function formatOf(name: string): string {
  return /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toUpperCase() ?? '';
}

/** The descriptive fields a caller may give (provenance as the original chain writes it, research §1.8). */
function described(params: Params): ResourceChanges {
  const changes: ResourceChanges = {};
  for (const key of ['name', 'description', 'format', 'mimetype'] as const) {
    const value = optional(params, key);
    if (value !== undefined || params[key] === '') changes[key] = value ?? '';
  }
  // Served as the file's Content-Type: a header value, so a media type and nothing else.
  if (changes.mimetype && !isMediaType(changes.mimetype)) {
    throw invalid(
      `not a media type such as text/csv: ${JSON.stringify(changes.mimetype.slice(0, 100))}`,
      'mimetype',
    );
  }
  for (const key of ['hadPrimarySource', 'wasGeneratedBy'] as const) {
    const value = optional(params, key);
    if (value !== undefined) changes[key] = value;
  }
  return changes;
}

/** The fields of a stored upload, checked against the upload limit (LABLD_UPLOAD_LIMIT). */
function uploaded(deps: ActionDeps, upload: StoredUpload): ResourceFields {
  if (!deps.blobs.has(upload.blob)) throw notFound('the uploaded file is not stored', 'upload');
  const size = deps.blobs.size(upload.blob);
  const limit = byteSetting('LABLD_UPLOAD_LIMIT');
  if (size > limit) {
    throw tooLarge(`larger than the limit of ${limit} bytes (LABLD_UPLOAD_LIMIT)`, 'upload');
  }
  return {
    name: upload.filename,
    url: upload.filename,
    url_type: 'upload',
    size,
    hash: upload.blob,
    blob_key: upload.blob,
    mimetype: uploadedType(upload.mimetype, upload.filename),
    format: formatOf(upload.filename),
  };
}

/**
 * The declared type of an upload's part; none declared (or the octet-stream a client sends when it
 * knows no better: ckanapi's requests), the type of its file name's extension, as CKAN guesses it
 * (ckan.mimetype_guess = file_ext); '' when that is unknown too.
 */
function uploadedType(declared: string, filename: string): string {
  // A part's declared type that is not a media type is as good as none.
  if (declared !== 'application/octet-stream' && isMediaType(declared)) return declared;
  const guessed = contentTypeOf(filename);
  return guessed === 'application/octet-stream' ? '' : guessed;
}

function linked(url: string): ResourceFields {
  const name = lastSegment(url);
  return { name, url, url_type: 'link', size: null, hash: '', blob_key: null, format: formatOf(name) };
}

/** A link resource given inline (package_create's `resources`). */
export async function createLinkResource(
  tx: CatalogueStore,
  datasetId: string,
  params: Params,
  creator: string | null,
): Promise<Resource> {
  const url = linkUrl(params);
  if (url === undefined) throw invalid('Missing value', 'url');
  return tx.createResource(datasetId, {
    ...linked(url),
    ...described(params),
    creator_user_id: creator,
    ...givenId(params),
  });
}

/** Drops the datastore tables of these resources, where there are any. */
export async function dropTables(deps: ActionDeps, resourceIds: string[]): Promise<void> {
  for (const id of resourceIds) {
    try {
      await deps.datastore.delete(id);
    } catch (error) {
      if (!(isDomainError(error) && error.kind === 'not-found')) throw error;
    }
  }
}

const show = async (deps: ActionDeps, resource: Resource) =>
  resourceDict(deps.datastore, deps.siteUrl, resource);

const resourceCreate: Action = async (deps, viewer, params, { upload }) => {
  const dataset = await datasetFor(
    deps.store,
    viewer,
    'resource.create',
    required(params, 'package_id'),
    'package_id',
  );
  const url = upload ? undefined : linkUrl(params);
  if (!upload && url === undefined) throw invalid('Missing value: give a url or an upload', 'url');
  const source = upload ? uploaded(deps, upload) : linked(url!);
  const id = givenId(params);
  const resource = await deps.store.transaction(async (tx) => {
    const created = await tx.createResource(dataset.id, {
      ...source,
      ...described(params),
      creator_user_id: viewer.user?.id ?? null,
      ...id,
    });
    await announceUpload(tx, created);
    // A new mapping in the library: the uploads waiting for one select again.
    if (inLibrary(dataset, created)) await reselectWaiting(tx);
    return created;
  });
  return show(deps, resource);
};

const resourceShow: Action = async (deps, viewer, params) => {
  const { resource } = await resourceFor(deps.store, viewer, 'resource.read', required(params, 'id'));
  return show(deps, resource);
};

/**
 * resource_update replaces the descriptive fields (left out: cleared, the name from the file
 * or URL), as CKAN's does; the file or link stays unless a new `upload` or `url` comes.
 * resource_patch changes only what is given.
 */
async function change(
  deps: ActionDeps,
  viewer: Viewer,
  params: Params,
  upload: StoredUpload | undefined,
  patch: boolean,
) {
  const { resource, dataset } = await resourceFor(
    deps.store,
    viewer,
    'resource.update',
    required(params, 'id'),
  );
  const url = upload ? undefined : linkUrl(params);
  const source = upload ? uploaded(deps, upload) : url !== undefined ? linked(url) : undefined;
  // A patch that brings a file keeps the name and media type the resource has, as CKAN's does
  // (ckanapi's `load --upload-resources` patches each file onto the resource it just created).
  const kept: ResourceChanges = {
    ...(upload && resource.name ? { name: resource.name } : {}),
    ...(upload && source?.mimetype === '' && resource.mimetype ? { mimetype: resource.mimetype } : {}),
  };
  const changes: ResourceChanges = patch
    ? { ...source, ...kept, ...described(params) }
    : {
        name: source?.name ?? (resource.url_type === 'upload' ? resource.url : lastSegment(resource.url)),
        description: '',
        format: source?.format ?? resource.format,
        mimetype: source?.mimetype ?? '',
        hadPrimarySource: null,
        wasGeneratedBy: null,
        ...source,
        ...described(params),
      };
  const updated = await deps.store.transaction(async (tx) => {
    const after = await tx.updateResource(resource.id, changes);
    // A new file or link, or a new format, is a new version of the source: its chain runs again.
    if (source !== undefined || after.format !== resource.format) {
      await announceUpload(tx, after);
      if (inLibrary(dataset, after)) await reselectWaiting(tx);
    }
    // A loaded dataset's graph of this resource follows it (its name and file).
    await announceSync(tx, after.package_id);
    return after;
  });
  return show(deps, updated);
}

const resourceUpdate: Action = (deps, viewer, params, { upload }) =>
  change(deps, viewer, params, upload, false);
const resourcePatch: Action = (deps, viewer, params, { upload }) =>
  change(deps, viewer, params, upload, true);

/** Deletes the resource, what the chain derived from it, and their datastore tables. */
const resourceDelete: Action = async (deps, viewer, params) => {
  const { resource } = await resourceFor(deps.store, viewer, 'resource.delete', required(params, 'id'));
  const derived = await deps.store.transaction(async (tx) => {
    const gone = await tx.deleteDerivedFrom(resource.id);
    await tx.deleteResource(resource.id);
    await announceDelete(tx, resource);
    await announceSync(tx, resource.package_id);
    return gone;
  });
  await dropTables(deps, [resource.id, ...derived]);
  return null;
};

/** labld's own: where a resource's bytes are (the pages' and CKAN's download URL). */
const resourceDownload: Action = async (deps, viewer, params) => {
  const { resource } = await resourceFor(deps.store, viewer, 'resource.read', required(params, 'id'));
  return downloadDict(resource);
};

/** labld_resource_download's answer: a link's URL, or the stored file's blob, name, type and size. */
export function downloadDict(resource: Resource): Record<string, unknown> {
  if (resource.url_type !== 'upload' || resource.blob_key === null) return { url: resource.url };
  return {
    blob: resource.blob_key,
    filename: resource.url,
    mimetype: resource.mimetype || 'application/octet-stream',
    size: resource.size,
  };
}

export const resourceActions = {
  resource_create: resourceCreate,
  resource_show: resourceShow,
  resource_update: resourceUpdate,
  resource_patch: resourcePatch,
  resource_delete: resourceDelete,
  labld_resource_download: resourceDownload,
};
