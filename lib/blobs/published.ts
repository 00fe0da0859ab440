// Published files: the blobs labld hands out by URL (an upload named in a descriptor). Blob keys
// are content hashes, so anyone who has (or can guess) the bytes could compute one; a published
// file is reached by a random id instead, and only what was published is ever served. Entries
// live beside the blobs (the shared volume in scale-out), one small JSON file per id, written
// to a temporary file and renamed so that no reader sees half an entry.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStore } from './blob-store.ts';

export interface PublishedFile {
  /** The blob served. */
  blob: string;
  /** The file name its URL ends with, as given (not percent-encoded). */
  name: string;
  /** The media type recorded at upload (without parameters). */
  contentType: string;
  /** The text's character set, once known (the annotator records the encoding it read). */
  charset?: string;
}

/** 128 random bits, base64url: 22 characters. */
const ID = /^[A-Za-z0-9_-]{22}$/;

const TYPES: Record<string, string> = {
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  txt: 'text/plain',
  json: 'application/json',
  jsonld: 'application/ld+json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  ttl: 'text/turtle',
  zip: 'application/zip',
};

/** What a file of this name is served as; never a type a browser would run (HTML, SVG). */
export function contentTypeOf(fileName: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}

function entryDir(blobs: BlobStore): string {
  return join(blobs.dir, 'published');
}

export function isPublishedId(id: string): boolean {
  return ID.test(id);
}

/** Publish `blob` under a new random id; resolves to the id. */
export async function publish(
  blobs: BlobStore,
  blob: string,
  name: string,
  contentType: string = contentTypeOf(name),
  charset?: string,
): Promise<string> {
  blobs.path(blob); // only an existing blob can be published
  const id = randomBytes(16).toString('base64url');
  await writeEntry(blobs, id, { blob, name, contentType, ...(charset ? { charset } : {}) });
  return id;
}

/** Records the character set of a published text, learnt after publishing (on reading it). */
export async function recordCharset(blobs: BlobStore, id: string, charset: string): Promise<void> {
  const entry = await published(blobs, id);
  if (entry) await writeEntry(blobs, id, { ...entry, charset });
}

async function writeEntry(blobs: BlobStore, id: string, entry: PublishedFile): Promise<void> {
  const dir = entryDir(blobs);
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const temp = join(dir, 'tmp', randomUUID());
  try {
    await writeFile(temp, JSON.stringify(entry), { flag: 'wx' });
    await rename(temp, join(dir, id));
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** The Content-Type a published file is served with: its recorded type and charset. */
export function servedContentType(entry: PublishedFile): string {
  return entry.charset ? `${entry.contentType}; charset=${entry.charset}` : entry.contentType;
}

/** The entry of a published id, or undefined (a malformed or unknown id). */
export async function published(blobs: BlobStore, id: string): Promise<PublishedFile | undefined> {
  if (!ID.test(id)) return undefined;
  let text: string;
  try {
    text = await readFile(join(entryDir(blobs), id), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const entry = JSON.parse(text) as PublishedFile;
  return blobs.has(entry.blob) ? entry : undefined;
}
