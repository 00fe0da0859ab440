// The files a chain step reads, as the domains read them. The domains are handed loaders keyed
// by URL (lib/loader.ts); a chain step knows its files as blobs with the catalogue URLs they are
// published at, so the loaders here answer those URLs from the blob store (no fetch, no HTTP
// round trip through labld's own gateway) and hand every other URL (a mapping's template) to
// the loader the consumer supplies (the guarded fetch).
import { text as readText } from 'node:stream/consumers';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { Loader, ResourceLoader } from '../loader.ts';
import { notFound } from '../process/errors.ts';

/** A file of the chain: a stored blob and the URL the catalogue serves it at. */
export interface ChainFile {
  /** The URL the chain's outputs name it by (descriptor `url`, provenance). */
  url: string;
  /** Its bytes in the blob store. */
  blob: string;
  /** The resource's file name, e.g. `example.csv`. */
  name: string;
}

/** A file given by its text instead of a blob (a mapping read from the library). */
export interface TextFile {
  url: string;
  text: string;
  name: string;
}

export type KnownFile = ChainFile | TextFile;

/** The URL without its fragment: `…/example.csv#row=3` is the same file. */
const fileUrl = (url: string) => url.replace(/#.*$/, '');

export interface ChainLoaders {
  /** Text of a URL (the converter, the mapping checks). */
  text: Loader;
  /** A streamed body (csv2rdf reads the CSV as it streams). */
  resource: ResourceLoader;
}

/**
 * Loaders over `files`; any other URL goes to `fallback`, and without one it is a not-found
 * naming the field (a chain step never fetches by itself).
 */
export function chainLoaders(files: readonly KnownFile[], blobs: BlobStore, fallback?: Loader): ChainLoaders {
  const byUrl = new Map(files.map((file) => [fileUrl(file.url), file]));
  const other = (url: string, field: string): Loader => {
    if (fallback) return fallback;
    throw notFound(`${field}: ${url} is not a file of this chain and no other URL may be read`, field);
  };
  return {
    text: async (url, field) => {
      const file = byUrl.get(fileUrl(url));
      if (!file) return other(url, field)(url, field);
      const text = 'text' in file ? file.text : await readText(blobs.open(file.blob, field));
      return { url: file.url, text, fileName: file.name };
    },
    resource: async (url, field) => {
      const file = byUrl.get(fileUrl(url));
      if (!file) return other(url, field)(url, field);
      // Stored files carry no media type: readers go by the bytes and the name (lib/sources.ts).
      return 'text' in file ? { text: file.text } : { body: blobs.open(file.blob, field) };
    },
  };
}
