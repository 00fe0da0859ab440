// Opening a URL a client handed us. labld's own stored files (the URL of an upload, which the
// descriptor names and the mapper and converter read later) come straight from the blob store,
// by their published id; every other URL goes through the guarded fetch.
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { text as readText } from 'node:stream/consumers';
import type { BlobStore } from './blobs/blob-store.ts';
import { publish, published } from './blobs/published.ts';
import { notFound, invalid } from './process/errors.ts';
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

/** The id and name segments if `url` is below labld's stored-file URL (query and fragment ignored). */
function storedSegmentsOf(url: string): [string, string] | undefined {
  const prefix = `${baseUrl()}${STORED_FILES_PATH}/`;
  if (!url.startsWith(prefix)) return undefined;
  const [id = '', name = '', ...rest] = url.slice(prefix.length).split(/[?#]/)[0]!.split('/');
  return rest.length === 0 ? [id, safeDecode(name)] : [id, ''];
}

function safeDecode(segment: string): string {
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

export async function openSource(url: string, options: SourceOptions): Promise<Source> {
  const stored = storedSegmentsOf(url);
  if (stored !== undefined) {
    const entry = await storedFile(options.blobs, stored[0], stored[1], options.field);
    const body = options.blobs.open(entry.blob, options.field);
    return {
      url,
      fileName: entry.name,
      // As before publication existed: readers go by the bytes and the name, not a type we guessed.
      contentType: undefined,
      body,
      text: () => readText(body),
    };
  }
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
    if (cache && !UNCACHED_FIELDS.has(field) && storedSegmentsOf(url) === undefined) {
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
