// Opening a URL a client handed us. labld's own stored files (the URL of an upload, which the
// descriptor names and the mapper and converter read later) come straight from the blob store;
// every other URL goes through the guarded fetch.
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { text as readText } from 'node:stream/consumers';
import type { BlobStore } from './blobs/blob-store.ts';
import { ClientError } from './errors.ts';
import type { Loader } from './loader.ts';
import { guardedFetch, type FetchPolicy } from './fetch/guarded-fetch.ts';
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

/** The public URL of a stored file. */
export function storedFileUrl(key: string, fileName: string): string {
  return `${baseUrl()}${STORED_FILES_PATH}/${key}/${encodeURIComponent(fileName)}`;
}

function fileNameOf(url: URL): string {
  const last = basename(url.pathname);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The blob key if `url` is one of labld's stored-file URLs. */
function storedKeyOf(url: string): string | undefined {
  const prefix = `${baseUrl()}${STORED_FILES_PATH}/`;
  if (!url.startsWith(prefix)) return undefined;
  return url.slice(prefix.length).split('/')[0];
}

export async function openSource(url: string, options: SourceOptions): Promise<Source> {
  const key = storedKeyOf(url);
  if (key !== undefined) {
    const body = options.blobs.open(key, options.field);
    return {
      url,
      fileName: fileNameOf(new URL(url)),
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

/** The Loader the domains are handed: a client URL (or a stored file) read as text. */
export function textLoader(options: Omit<SourceOptions, 'field'>): Loader {
  return async (url, field) => {
    if (!URL.canParse(url))
      throw new ClientError(422, `${field}: ${JSON.stringify(url)} is not a URL`, field);
    const source = await openSource(url, { ...options, field });
    return {
      url: source.url,
      text: await source.text(),
      contentType: source.contentType,
      fileName: source.fileName,
    };
  };
}
