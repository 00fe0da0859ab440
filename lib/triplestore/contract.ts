// The triple store: each catalogue dataset's loaded resources as named graphs, queried and
// updated one dataset at a time. Cut along the catalogue's concepts (dataset, graph per loaded
// resource) and SPARQL's (query, update, result); no HTTP, no client-library types.
//
// A dataset's default graph is the union of its named graphs (as the original's
// `unionDefaultGraph true`). Whatever a query or update says, it runs over that dataset's
// graphs only (lib/triplestore/guard.ts); a dataset that was never loaded has no graphs and
// every query on it answers the empty result.
import type { Readable } from 'node:stream';
import type { QueryBounds } from './bounds.ts';
import { count } from '../process/counters.ts';
import type { ResultFormats } from '../contracts/result-types.ts';
import { RESULT_TYPES, sameText } from './result-text.ts';

export type { ResultFormats };

/**
 * RDF syntaxes a graph is loaded from: the catalogue's joined Turtle, and N-Triples, which
 * lib/rdf writes from any other syntax (JSON-LD, RDF/XML) for the load consumer.
 */
export const GRAPH_FORMATS = ['text/turtle', 'application/n-triples'] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

export interface GraphSource {
  format: GraphFormat;
  /** The document, streamed: a store never needs it whole in the caller's memory. */
  body: Readable | AsyncIterable<Uint8Array | string>;
  /** Resolves relative IRIs; default the graph's IRI. */
  baseIri?: string;
}

/** A SPARQL JSON term (https://www.w3.org/TR/sparql11-results-json/). */
export interface ResultTerm {
  type: 'uri' | 'literal' | 'bnode' | 'triple';
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

export type Binding = Record<string, ResultTerm>;

/** A SELECT's result: its text as the store wrote it, in `mediaType` (one of the table types). */
export interface TableResult {
  type: 'select';
  rows: number;
  mediaType: string;
  /**
   * As text: a large result crosses threads, the bus and the blob store as one string and goes
   * to the client as it is; nothing on the way (the gateway's main thread least) builds or walks
   * 100,000 row objects. `bindingsOf` reads SPARQL JSON.
   */
  text: string;
}

export interface AskResult {
  type: 'ask';
  boolean: boolean;
}

/** CONSTRUCT and DESCRIBE: the graph's text as the store wrote it (N-Triples, or Turtle when asked). */
export interface GraphResult {
  type: 'graph';
  triples: number;
  mediaType: string;
  text: string;
}

export type QueryResult = TableResult | AskResult | GraphResult;

/** The rows of a SELECT result written as SPARQL JSON (the default: what code that reads rows asks for). */
export function bindingsOf(result: TableResult): Binding[] {
  if (!sameText(result.mediaType, RESULT_TYPES.json)) {
    throw new Error(`bindingsOf: the result was written as ${result.mediaType}, not SPARQL JSON`);
  }
  count('result.parse');
  return (JSON.parse(result.text) as { results?: { bindings?: Binding[] } }).results?.bindings ?? [];
}

export interface QueryOptions {
  /** The caller stopped waiting (the client went away). */
  signal?: AbortSignal;
  /** The types to write the result in; a store writes what it can of them (result-text.ts). */
  formats?: ResultFormats;
}

export interface TripleStore {
  /**
   * Replaces the dataset's graph `graph` with the document (creates it the first time):
   * atomically — a concurrent query sees the old graph or the new one, never an empty or a
   * half-loaded one; invalid RDF changes nothing (`invalid`, field `body`). A graph IRI
   * belongs to one dataset: another dataset's is a `conflict`. Returns the triples loaded.
   */
  replaceGraph(datasetId: string, graph: string, source: GraphSource): Promise<{ triples: number }>;
  /** Removes one graph of the dataset; false when the dataset had no such graph. */
  dropGraph(datasetId: string, graph: string): Promise<boolean>;
  /** Removes every graph of the dataset (the catalogue deleted it). */
  dropDataset(datasetId: string): Promise<void>;
  /** The dataset's graph IRIs, sorted; empty for a dataset never loaded. */
  graphs(datasetId: string): Promise<string[]>;
  /**
   * SELECT, ASK, CONSTRUCT or DESCRIBE over the dataset's graphs only. Refused: SERVICE,
   * graphs of anything else named anywhere (`forbidden`, field `query`), text that is not
   * SPARQL (`invalid`), more than the result limit (`too-large`), past the time limit
   * (`upstream-timeout`).
   */
  query(datasetId: string, query: string, options?: QueryOptions): Promise<QueryResult>;
  /**
   * A SPARQL Update changing only the dataset's existing graphs, each named (GRAPH or WITH);
   * LOAD, CREATE, CLEAR/DROP ALL, DEFAULT or NAMED and anything outside the dataset are
   * `forbidden` (field `update`). All or nothing.
   */
  update(datasetId: string, update: string, options?: QueryOptions): Promise<void>;
  /** Throws when the store cannot answer (for /readyz). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The limits every query and update runs under (LABLD_SPARQL_TIMEOUT_MS, LABLD_SPARQL_MAX_RESULTS). */
export interface QueryLimits {
  timeoutMs: number;
  /** Rows of a SELECT, triples of a CONSTRUCT or DESCRIBE. */
  maxResults: number;
  /** How big a query's text and algebra may be (LABLD_SPARQL_MAX_*); default the settings' defaults. */
  bounds?: QueryBounds;
  /** Embedded store: how much one query may grow the process's memory, in MB (LABLD_SPARQL_MEMORY_MB). */
  memoryMb?: number;
}

/**
 * The named graph of a loaded resource: the resource's download URL, as the original
 * (ckanext-fuseki) named it — `{site}/dataset/<dataset id>/resource/<resource id>/download/<file>`.
 */
export function resourceGraphIri(
  siteUrl: string,
  datasetId: string,
  resourceId: string,
  fileName: string,
): string {
  const site = siteUrl.replace(/\/+$/, '');
  const part = encodeURIComponent;
  return `${site}/dataset/${part(datasetId)}/resource/${part(resourceId)}/download/${part(fileName)}`;
}
