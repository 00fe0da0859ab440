// Opening a URL a client handed us: the one resolver in front of the guarded fetch. A URL at
// labld's own base URL is never fetched over HTTP: a stored file (the URL of an upload, which
// the descriptor names and the mapper and converter read later) comes straight from the blob
// store by its published id; a catalogue resource's download URL from the catalogue's store,
// with the caller's rights (so a mapping may name a template stored beside it, offline); any
// other address of labld is refused. Every other URL goes through the guarded fetch.
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { text as readText } from 'node:stream/consumers';
import type { BlobStore } from './blobs/blob-store.ts';
import { publish, published } from './blobs/published.ts';
import { DomainError, notFound, invalid } from './process/errors.ts';
import type { CatalogueFiles } from './catalogue/resource-file.ts';
import { KIND, redactUrl } from './fetch/errors.ts';
import type { Loader } from './loader.ts';
import { guardedFetch, type FetchPolicy } from './fetch/guarded-fetch.ts';
import { fetchDocument } from './fetch/cached-fetch.ts';
import type { DocumentCache } from './shared/contract.ts';
import { baseUrl } from './services.ts';

/** Where uploads are served, below labld's base URL (the annotator gateway serves them). */
export const STORED_FILES_PATH = '/annotator/files';

export interface Source {
  /** The URL as answered (after redirects), without credentials. */
  url: string;
  /** The last path segment, decoded; what the original services named outputs after. */
  fileName: string;
  contentType: string | undefined;
  /** Read once. */
  body: Readable;
  text(): Promise<string>;
}

export interface SourceOptions {
  /** The request field the URL came from; errors name it. */
  field: string;
  blobs: BlobStore;
  policy?: FetchPolicy;
  authorization?: string;
  signal?: AbortSignal;
  /** The catalogue's files with the caller's rights; without it a catalogue download URL is refused. */
  catalogue?: CatalogueFiles;
}

/** The public URL of a published file (lib/blobs/published.ts): its id, then its name. */
export function storedFileUrl(id: string, fileName: string): string {
  return `${baseUrl()}${STORED_FILES_PATH}/${id}/${encodeURIComponent(fileName)}`;
}

/**
 * Publish blob `key` as `fileName` and answer its public URL. The only way a blob becomes
 * readable by URL; call it where the URL is handed out (an upload named in a descriptor).
 */
export async function publishStoredFile(
  blobs: BlobStore,
  key: string,
  fileName: string,
  charset?: string,
): Promise<string> {
  return storedFileUrl(await publish(blobs, key, fileName, undefined, charset), fileName);
}

function fileNameOf(url: URL): string {
  return safeDecode(basename(url.pathname));
}

/** What a URL at labld's own base URL names: a stored file, a catalogue resource, or nothing to read. */
type OwnTarget =
  | { kind: 'stored'; id: string; name: string }
  | { kind: 'resource'; dataset: string; resource: string }
  | { kind: 'elsewhere' };

const STORED = /^\/annotator\/files\/([^/]*)(?:\/([^/]*))?(\/.*)?$/;
const DOWNLOAD = /^\/dataset\/([^/]+)\/resource\/([^/]+)\/download(?:\/[^/]*)?$/;

/** What `url` names below labld's base URL (same origin and path prefix), or undefined when it is elsewhere. */
function ownTarget(url: string): OwnTarget | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  const base = new URL(baseUrl());
  const prefix = base.pathname.replace(/\/+$/, '');
  if (parsed.origin !== base.origin || !parsed.pathname.startsWith(`${prefix}/`)) return undefined;
  const path = parsed.pathname.slice(prefix.length);
  const stored = STORED.exec(path);
  if (stored) {
    const [, id = '', name = '', rest] = stored;
    return { kind: 'stored', id, name: rest === undefined ? safeDecode(name) : '' };
  }
  const download = DOWNLOAD.exec(path);
  if (download)
    return { kind: 'resource', dataset: safeDecode(download[1]!), resource: safeDecode(download[2]!) };
  return { kind: 'elsewhere' };
}

/** A URL's path segment decoded, or as it is when its escapes are broken (`%zz`). */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The published file an `/annotator/files/<id>/<name>` address names: only a published id with
 * its recorded name; anything else (an old content-hash URL, a claim, another request's output)
 * is a 404 naming `field`.
 */
export async function storedFile(blobs: BlobStore, id: string, name: string, field: string) {
  const entry = await published(blobs, id);
  if (!entry || entry.name !== name) throw notFound('no such stored file', field);
  return entry;
}

function refused(url: string, field: string, rule: string): DomainError {
  return new DomainError(KIND.address, `${field}: ${redactUrl(url)} refused: ${rule}`, field);
}

/** As before publication existed: readers go by the bytes and the name, not a type someone guessed. */
function storedSource(url: string, fileName: string, body: Readable): Source {
  return { url, fileName, contentType: undefined, body, text: () => readText(body) };
}

/** A URL of labld's own, read from its stores: never over HTTP, never through the fetch guard. */
async function openOwn(url: string, target: OwnTarget, options: SourceOptions): Promise<Source> {
  const { field, blobs } = options;
  if (target.kind === 'stored') {
    const entry = await storedFile(blobs, target.id, target.name, field);
    return storedSource(url, entry.name, blobs.open(entry.blob, field));
  }
  if (target.kind === 'elsewhere' || !options.catalogue) {
    const what = target.kind === 'elsewhere' ? 'names no file of its catalogue' : 'is a catalogue resource';
    throw refused(url, field, `it is labld's own address and ${what}: labld never fetches from itself`);
  }
  const file = await options.catalogue(target.dataset, target.resource, field);
  if ('link' in file) {
    // A link resource is read where it points, once: a link to another resource of ours is refused.
    return openSource(file.link, { ...options, catalogue: undefined });
  }
  return storedSource(url, file.fileName, blobs.open(file.blob, field));
}

export async function openSource(url: string, options: SourceOptions): Promise<Source> {
  const own = ownTarget(url);
  if (own !== undefined) return openOwn(url, own, options);
  const fetched = await guardedFetch(url, {
    field: options.field,
    policy: options.policy,
    authorization: options.authorization,
    signal: options.signal,
  });
  return {
    url: fetched.url,
    fileName: fileNameOf(new URL(fetched.url)),
    contentType: fetched.contentType,
    body: fetched.body,
    text: () => fetched.text(),
  };
}

/**
 * Fields whose documents are the client's data, read fresh on every request: a changed data
 * file must not wait out a cache's freshness. Templates, mappings and shapes go through `cache`.
 */
const UNCACHED_FIELDS = new Set(['data_url', 'rdf_url']);

export interface TextLoaderOptions extends Omit<SourceOptions, 'field'> {
  /** The shared document cache (lib/fetch/cached-fetch.ts); none: every document is fetched. */
  cache?: DocumentCache;
}

/** The Loader the domains are handed: a client URL (or a stored file) read as text. */
export function textLoader(options: TextLoaderOptions): Loader {
  return async (url, field) => {
    if (!URL.canParse(url)) throw invalid(`${field}: ${JSON.stringify(url)} is not a URL`, field);
    const { cache } = options;
    if (cache && !UNCACHED_FIELDS.has(field) && ownTarget(url) === undefined) {
      const document = await fetchDocument(url, { ...options, cache, field });
      return {
        url: document.url,
        text: document.text(),
        contentType: document.contentType,
        fileName: fileNameOf(new URL(document.url)),
      };
    }
    const source = await openSource(url, { ...options, field });
    return {
      url: source.url,
      text: await source.text(),
      contentType: source.contentType,
      fileName: source.fileName,
    };
  };
}
