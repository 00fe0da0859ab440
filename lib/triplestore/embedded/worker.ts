// The embedded triple store's worker thread: it owns the oxigraph stores (one per dataset, so a
// query for one dataset has no other dataset's data within reach) and the files under the
// store's directory. oxigraph's calls are synchronous, so a query cannot be interrupted from
// inside; the main thread (store.ts) ends this thread when a query runs past its time limit
// and starts another, which rebuilds from the files whatever is queried next.
//
// Messages are handled one at a time, so a graph's replacement (drop, then load, in one
// synchronous step) is never seen half done by a query.
import { parentPort, workerData } from 'node:worker_threads';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as oxigraph from 'oxigraph/web.js';
import { DomainError, conflict, invalid, tooLarge } from '../../process/errors.ts';
import type { GraphFormat, QueryResult, ResultFormats } from '../contract.ts';
import { NTRIPLES, countTriples, graphFormat, tableFormat, tableText } from '../result-text.ts';
import type { QueryBounds } from '../bounds.ts';
import { guardQuery, guardUpdate } from '../guard.ts';
import {
  GRAPH_PREFIX,
  type Manifest,
  chunks,
  datasetDir,
  newFileName,
  readManifest,
  removeLeftovers,
  writeGraphFile,
  writeManifest,
} from './disk.ts';
import { countExternalMemoryInHeapLimit } from './heap.ts';
import { count } from '../../process/counters.ts';

export interface WorkerConfig {
  root: string;
  /** Triples kept in memory across datasets before the least recently queried are let go. */
  memoryTriples: number;
  maxResults: number;
  bounds: QueryBounds | undefined;
  /** A reader: answers queries; the one writer (store.ts routes writes to it) changes files. */
  readOnly: boolean;
  /** oxigraph's compiled WebAssembly, the process's one (oxigraph-module.ts). */
  module: WebAssembly.Module;
}

export type Request =
  | { op: 'replace'; dataset: string; graph: string; file: string; format: GraphFormat; base: string }
  | { op: 'drop'; dataset: string; graph: string }
  | { op: 'dropDataset'; dataset: string }
  | { op: 'graphs'; dataset: string }
  | { op: 'query'; dataset: string; text: string; formats?: ResultFormats }
  | { op: 'update'; dataset: string; text: string }
  /** Runs a query on an empty store: whether oxigraph still answers (/readyz). */
  | { op: 'ping' }
  /** Another thread changed the dataset: its manifest is read again and its copy let go. */
  | { op: 'refresh'; dataset: string };

export type Reply =
  /** The query's dataset is in memory and oxigraph starts on it (store.ts watches its memory from here). */
  (
    | { id: number; running: true }
    | { id: number; ok: true; value: unknown }
    | {
        id: number;
        ok: false;
        error: { kind: DomainError['kind']; message: string; field?: string } | { message: string };
        /** oxigraph trapped (its WASM instance is unusable from now on): this thread must be replaced. */
        fatal?: true;
      }
  ) & {
    /** The datasets in this thread's memory once the message was handled: store.ts sends a query there. */
    held?: string[];
  };

/** A WebAssembly.RuntimeError: oxigraph trapped ("memory access out of bounds", "unreachable"). */
function isTrap(error: unknown): boolean {
  return error instanceof Error && error.name === 'RuntimeError';
}

const config = workerData as WorkerConfig;
countExternalMemoryInHeapLimit();
oxigraph.initSync({ module: config.module });
const { namedNode } = oxigraph;

/** Every dataset's manifest, read at start (small files): graphs() and ownership need no data. */
const manifests = new Map<string, Manifest>();
/** Which dataset each graph IRI belongs to. */
const owners = new Map<string, string>();
/** Datasets in memory, least recently used first. */
const loaded = new Map<string, oxigraph.Store>();

for (const name of existsSync(config.root) ? readdirSync(config.root) : []) {
  const manifest = readManifest(datasetDir(config.root, name));
  manifests.set(name, manifest);
  for (const graph of Object.keys(manifest.graphs)) owners.set(graph, name);
}

function manifestOf(dataset: string): Manifest {
  return manifests.get(dataset) ?? { graphs: {} };
}

function graphsOf(dataset: string): string[] {
  return Object.keys(manifestOf(dataset).graphs).sort();
}

/** The dataset's triples as its manifest counts them: `store.size` walks every quad. */
function triplesOf(dataset: string): number {
  let total = 0;
  for (const entry of Object.values(manifestOf(dataset).graphs)) total += entry.triples;
  return total;
}

/**
 * Loads a file into a graph in one transaction: as fast as oxigraph's bulk path
 * (`no_transaction`) for the memory store, which buffers the parsed quads and peaks a quarter
 * higher (630 against 470 MB for 1M triples). `checked` files were validated when they were
 * first loaded: read back leniently.
 */
function loadFile(
  store: oxigraph.Store,
  path: string,
  format: GraphFormat,
  graph: string,
  base: string,
  checked = false,
): void {
  store.load(chunks(path), {
    format,
    base_iri: base,
    to_graph_name: namedNode(graph),
    lenient: checked,
  });
}

function release(store: oxigraph.Store): void {
  (store as unknown as { free?: () => void }).free?.();
}

/** The dataset's store, rebuilt from its files if it is not in memory; then keeps memory bounded. */
function storeOf(dataset: string): oxigraph.Store {
  let store = loaded.get(dataset);
  if (store) {
    loaded.delete(dataset);
  } else {
    const dir = datasetDir(config.root, dataset);
    const manifest = manifestOf(dataset);
    removeLeftovers(dir, manifest, false);
    store = new oxigraph.Store();
    for (const [graph, entry] of Object.entries(manifest.graphs)) {
      loadFile(store, join(dir, entry.file), entry.format, graph, entry.base, true);
    }
  }
  loaded.set(dataset, store);
  let total = 0;
  for (const name of loaded.keys()) total += triplesOf(name);
  for (const [name, s] of loaded) {
    if (total <= config.memoryTriples || name === dataset) break;
    total -= triplesOf(name);
    loaded.delete(name);
    release(s);
  }
  return store;
}

function forget(dataset: string): void {
  const store = loaded.get(dataset);
  if (store) release(store);
  loaded.delete(dataset);
}

/** Writes the new manifest; if that fails the memory is let go so it cannot differ from disk. */
function commit(dataset: string, manifest: Manifest): void {
  try {
    writeManifest(datasetDir(config.root, dataset), manifest);
  } catch (error) {
    forget(dataset);
    throw error;
  }
  if (Object.keys(manifest.graphs).length === 0) manifests.delete(dataset);
  else manifests.set(dataset, manifest);
}

function replace(r: Extract<Request, { op: 'replace' }>): { triples: number } {
  const owner = owners.get(r.graph);
  if (owner !== undefined && owner !== r.dataset) {
    throw conflict(`graph: <${r.graph}> belongs to another dataset`, 'graph');
  }
  const dir = datasetDir(config.root, r.dataset);
  const incoming = join(dir, r.file);
  const old = manifestOf(r.dataset).graphs[r.graph];
  const store = storeOf(r.dataset);
  const drop = () => store.update(`DROP SILENT GRAPH <${r.graph}>`);
  drop();
  const before = triplesOf(r.dataset) - (old?.triples ?? 0);
  try {
    loadFile(store, incoming, r.format, r.graph, r.base);
  } catch (error) {
    // The old graph comes back from its file: nothing changed.
    drop();
    if (old) loadFile(store, join(dir, old.file), old.format, r.graph, old.base, true);
    rmSync(incoming, { force: true });
    throw invalid(`body: not valid ${r.format}: ${String((error as Error).message).slice(0, 300)}`, 'body');
  }
  const triples = store.size - before;
  const file = GRAPH_PREFIX + r.file.slice(r.file.indexOf('-') + 1);
  renameSync(incoming, join(dir, file));
  const manifest = structuredClone(manifestOf(r.dataset));
  manifest.graphs[r.graph] = { file, format: r.format, base: r.base, triples };
  commit(r.dataset, manifest);
  owners.set(r.graph, r.dataset);
  if (old) rmSync(join(dir, old.file), { force: true });
  return { triples };
}

function drop(dataset: string, graphs: string[]): boolean {
  const manifest = structuredClone(manifestOf(dataset));
  const present = graphs.filter((g) => manifest.graphs[g] !== undefined);
  if (present.length === 0) return false;
  const files = present.map((g) => manifest.graphs[g]!.file);
  for (const g of present) delete manifest.graphs[g];
  const store = loaded.get(dataset);
  for (const g of present) store?.update(`DROP SILENT GRAPH <${g}>`);
  commit(dataset, manifest);
  for (const g of present) owners.delete(g);
  if (Object.keys(manifest.graphs).length === 0) forget(dataset);
  const dir = datasetDir(config.root, dataset);
  for (const file of files) rmSync(join(dir, file), { force: true });
  return true;
}

const EMPTY = new oxigraph.Store();

/**
 * Runs a query and writes its result in the type asked where oxigraph can (every SPARQL results
 * type; N-Triples and Turtle for a graph), once: that text goes to the client as it is. Rows and
 * triples are counted on the text (result-text.ts), never by parsing it back.
 */
function query(dataset: string, text: string, formats: ResultFormats = {}): QueryResult {
  const graphs = graphsOf(dataset);
  const guarded = guardQuery(text, graphs, config.maxResults, config.bounds);
  const store = graphs.length === 0 ? EMPTY : storeOf(dataset);
  const options = {
    default_graph: guarded.defaultGraphs.map((g) => namedNode(g)),
    named_graphs: guarded.namedGraphs.map((g) => namedNode(g)),
  };
  const limit = (what: string) =>
    tooLarge(
      `query: more than ${config.maxResults} ${what} (LABLD_SPARQL_MAX_RESULTS); add a LIMIT`,
      'query',
    );
  const run = (format?: string): unknown => {
    running();
    try {
      const written = store.query(guarded.text, { ...options, results_format: format });
      if (format !== undefined) count('result.write');
      return written;
    } catch (error) {
      // oxigraph's own refusals (a regex too big, …) are the query's fault: not retried.
      if (isTrap(error)) throw error;
      throw invalid(
        `query: the triple store refused it: ${String((error as Error).message).slice(0, 300)}`,
        'query',
      );
    }
  };
  if (guarded.form === 'construct' || guarded.form === 'describe') {
    const format = graphFormat(formats.graph);
    const written = run(format) as string;
    const triples = countTriples(written, format);
    if (triples > config.maxResults) throw limit('triples');
    return { type: 'graph', mediaType: format, text: written, triples };
  }
  // Without a format oxigraph answers an ASK with the boolean itself.
  if (guarded.form === 'ask') return { type: 'ask', boolean: run() === true };
  const format = tableFormat(formats.table);
  // The guard's LIMIT is one more than allowed: at most that many rows to count.
  const table = tableText(run(format) as string, format, formats.table);
  if (table.rows > config.maxResults) throw limit('results');
  return { type: 'select', ...table };
}

function update(dataset: string, text: string): void {
  const guarded = guardUpdate(text, graphsOf(dataset), config.bounds);
  const store = storeOf(dataset);
  running();
  try {
    store.update(guarded.text);
  } catch (error) {
    forget(dataset);
    if (isTrap(error)) throw error;
    throw invalid(`update: ${String((error as Error).message).slice(0, 300)}`, 'update');
  }
  const dir = datasetDir(config.root, dataset);
  const manifest = structuredClone(manifestOf(dataset));
  const replaced: string[] = [];
  try {
    for (const graph of guarded.graphs) {
      const ntriples = store.dump({ format: 'application/n-triples', from_graph_name: namedNode(graph) });
      const file = newFileName(GRAPH_PREFIX, 'application/n-triples');
      writeGraphFile(dir, file, ntriples);
      replaced.push(manifest.graphs[graph]!.file);
      manifest.graphs[graph] = {
        file,
        format: 'application/n-triples',
        base: graph,
        triples: countTriples(ntriples, NTRIPLES),
      };
    }
    commit(dataset, manifest);
  } catch (error) {
    forget(dataset);
    throw error;
  }
  for (const file of replaced) rmSync(join(dir, file), { force: true });
}

/** Another thread wrote the dataset: this one's manifest, owners and copy follow the disk. */
function refresh(dataset: string): void {
  for (const graph of graphsOf(dataset)) owners.delete(graph);
  forget(dataset);
  const manifest = readManifest(datasetDir(config.root, dataset));
  if (Object.keys(manifest.graphs).length === 0) manifests.delete(dataset);
  else manifests.set(dataset, manifest);
  for (const graph of Object.keys(manifest.graphs)) owners.set(graph, dataset);
}

const WRITES = new Set<Request['op']>(['replace', 'drop', 'dropDataset', 'update']);

function handle(r: Request): unknown {
  if (config.readOnly && WRITES.has(r.op)) throw new Error(`${r.op} sent to a reader thread`);
  switch (r.op) {
    case 'replace':
      return replace(r);
    case 'drop':
      return drop(r.dataset, [r.graph]);
    case 'dropDataset':
      drop(r.dataset, graphsOf(r.dataset));
      return undefined;
    case 'graphs':
      return graphsOf(r.dataset);
    case 'query':
      return query(r.dataset, r.text, r.formats);
    case 'update':
      return update(r.dataset, r.text);
    case 'ping':
      return EMPTY.query('ASK {}');
    case 'refresh':
      return refresh(r.dataset);
  }
}

/** The message being handled. */
let handling = 0;
const running = () => parentPort!.postMessage({ id: handling, running: true } satisfies Reply);

parentPort!.on('message', (message: { id: number; request: Request }) => {
  handling = message.id;
  let reply: Reply;
  try {
    reply = { id: message.id, ok: true, value: handle(message.request) };
  } catch (error) {
    reply =
      error instanceof DomainError
        ? {
            id: message.id,
            ok: false,
            error: { kind: error.kind, message: error.message, field: error.field },
          }
        : {
            id: message.id,
            ok: false,
            error: { message: String((error as Error)?.message ?? error) },
            // A trap leaves oxigraph's memory and stack pointer as they were: every later call fails.
            ...(isTrap(error) ? { fatal: true as const } : {}),
          };
  }
  parentPort!.postMessage({ ...reply, held: [...loaded.keys()] } satisfies Reply);
});
parentPort!.postMessage({ id: 0, ok: true, value: 'ready' });
