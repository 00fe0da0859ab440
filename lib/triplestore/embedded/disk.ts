// The embedded triple store on disk: LABLD_DATA/triplestore/<dataset id>/ holds one file per
// graph (the document as loaded, or N-Triples after an update) and manifest.json naming them.
// oxigraph's npm build keeps its store in memory only (WASM), so the files are the truth and a
// dataset's in-memory store is rebuilt from them when it is first queried.
//
// Crash safety (kill -9, power loss with the fsyncs): a graph file is written and synced under
// a new name before the manifest that names it replaces the old manifest by rename; the
// manifest is therefore always the old one or the new one, and files it does not name are
// leftovers of an interrupted change, removed when the dataset is next opened.
import {
  ReadStream,
  closeSync,
  createWriteStream,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { copyFile, open } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { GraphFormat, GraphSource } from '../contract.ts';

export interface GraphEntry {
  file: string;
  format: GraphFormat;
  base: string;
  triples: number;
}

export interface Manifest {
  graphs: Record<string, GraphEntry>;
}

const MANIFEST = 'manifest.json';
/** Files of graphs the manifest names; an interrupted load leaves an `incoming-` file. */
export const GRAPH_PREFIX = 'g-';
export const INCOMING_PREFIX = 'incoming-';

export const EXTENSIONS: Record<GraphFormat, string> = {
  'text/turtle': 'ttl',
  'application/n-triples': 'nt',
};

export function newFileName(prefix: string, format: GraphFormat): string {
  return `${prefix}${randomBytes(9).toString('hex')}.${EXTENSIONS[format]}`;
}

export function datasetDir(root: string, datasetId: string): string {
  return join(root, datasetId);
}

/**
 * The dataset's manifest; none (never loaded, or emptied) is no graphs. Read in one step: a
 * manifest removed between a check and the read would fail a reader in another thread or
 * process (it did, the endpoint's e2e test under load).
 */
export function readManifest(dir: string): Manifest {
  let text: string;
  try {
    text = readFileSync(join(dir, MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { graphs: {} };
    throw error;
  }
  return JSON.parse(text) as Manifest;
}

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces the manifest atomically; an empty one removes the dataset's directory, the manifest
 * first: removing the directory's files in whatever order would, for a while (for good, after
 * a crash), leave a manifest naming graph files already gone.
 */
export function writeManifest(dir: string, manifest: Manifest): void {
  if (Object.keys(manifest.graphs).length === 0) {
    if (!existsSync(dir)) return;
    rmSync(join(dir, MANIFEST), { force: true });
    syncDir(dir);
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `${MANIFEST}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, JSON.stringify(manifest));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, MANIFEST));
  syncDir(dir);
}

/** Writes a graph file and syncs it: it exists whole before any manifest names it. */
export function writeGraphFile(dir: string, name: string, text: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text, { flush: true });
}

/** The file a read stream would read whole, untouched so far; none for any other body. */
function wholeFile(body: GraphSource['body']): string | undefined {
  if (!(body instanceof ReadStream)) return undefined;
  const { path, bytesRead, readableEncoding } = body;
  const { start, end } = body as ReadStream & { start?: number; end?: number };
  const whole = (start ?? 0) === 0 && (end ?? Infinity) === Infinity;
  const untouched = bytesRead === 0 && body.readableLength === 0 && !body.readableDidRead;
  return typeof path === 'string' && whole && untouched && readableEncoding === null ? path : undefined;
}

/**
 * Writes a document to `path` and syncs it. A whole file's read stream (the blob store's, as a
 * load reads it) is copied by the kernel, not read through JavaScript: 17 against 50-90 ms of
 * CPU for 40 MB of Turtle. Any other body is streamed.
 */
export async function writeDocument(body: GraphSource['body'], path: string): Promise<void> {
  const file = wholeFile(body);
  if (file === undefined) {
    await pipeline(Readable.from(body), createWriteStream(path, { flush: true }));
    return;
  }
  // The stream's own error (its file cannot be opened) is copyFile's too, reported from there.
  (body as ReadStream).on('error', () => {}).destroy();
  await copyFile(file, path);
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes graph files the manifest does not name (a change interrupted by a crash). */
export function removeLeftovers(dir: string, manifest: Manifest, includeIncoming: boolean): void {
  if (!existsSync(dir)) return;
  const named = new Set(Object.values(manifest.graphs).map((g) => g.file));
  for (const name of readdirSync(dir)) {
    const leftover =
      (name.startsWith(GRAPH_PREFIX) && !named.has(name)) ||
      (includeIncoming && name.startsWith(INCOMING_PREFIX)) ||
      name === `${MANIFEST}.tmp`;
    if (leftover) rmSync(join(dir, name), { force: true });
  }
}

/** A file read in chunks, for oxigraph's `load` (which takes a synchronous iterable). */
export function* chunks(path: string, size = 1 << 20): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const buffer = new Uint8Array(size);
      const read = readSync(fd, buffer, 0, size, null);
      if (read === 0) return;
      yield read === size ? buffer : buffer.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}
