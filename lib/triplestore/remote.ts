// The triple store on any SPARQL 1.1 server with the Graph Store Protocol (Apache Jena Fuseki
// is the one tested), at LABLD_TRIPLESTORE_URL: one server dataset holds every catalogue
// dataset's graphs, with Fuseki's service layout under that URL (`sparql`, `update`, `data`).
// Which graphs belong to which catalogue dataset is kept in the server too, in a bookkeeping
// graph no query may name (guard.ts refuses `urn:labld:` IRIs), so several labld processes
// share it.
//
// Isolation: every query is sent with the SPARQL Protocol's dataset (`default-graph-uri`,
// `named-graph-uri`) set to the dataset's graphs, and the query's own FROM / FROM NAMED taken
// out of its text (guard.ts), so nothing in the text can widen it. Atomic replace: a document
// goes by GSP PUT into a fresh staging graph, then one update request (one transaction on the
// server) moves it over the old graph. Only labld's own headers are sent: a client's headers
// and cookies never reach the server.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  guardedFetch,
  policyFromEnv,
  type FetchPolicy,
  type FetchedResource,
} from '../fetch/guarded-fetch.ts';
import { parseAllowList } from '../fetch/address-policy.ts';
import { setting } from '../process/config.ts';
import { DomainError, conflict, invalid, tooLarge, unreachable, upstreamTimeout } from '../process/errors.ts';
import type {
  GraphSource,
  QueryLimits,
  QueryOptions,
  QueryResult,
  ResultTerm,
  TripleStore,
} from './contract.ts';
import { guardQuery, guardUpdate } from './guard.ts';
import { NTRIPLES, countTriples, tableFormat, tableText } from './result-text.ts';
import { count } from '../process/counters.ts';
import { checkDatasetId, checkFormat, checkGraphIri } from './names.ts';

const REGISTRY = 'urn:labld:triplestore:datasets';
const HAS_GRAPH = 'urn:labld:triplestore:graph';
/** The default graph of a query whose dataset clause chose none: never created, so empty. */
const EMPTY = 'urn:labld:triplestore:empty';
/** Loading a document may take minutes on a large graph; a dead server still ends it. */
const LOAD_TIMEOUT_MS = 10 * 60_000;
const FIELD = 'LABLD_TRIPLESTORE_URL';

const datasetNode = (id: string) => `<urn:labld:triplestore:dataset:${id}>`;

export interface RemoteTripleStoreOptions {
  /** The server dataset's URL, e.g. http://fuseki:3030/labld. */
  url: string;
  limits: QueryLimits;
  /** Default: the LABLD_FETCH_* policy, with the store's own host and port allowed. */
  policy?: FetchPolicy;
}

class RemoteTripleStore implements TripleStore {
  readonly #base: string;
  readonly #limits: QueryLimits;
  readonly #queries: FetchPolicy;
  readonly #loads: FetchPolicy;

  constructor(options: RemoteTripleStoreOptions) {
    if (!URL.canParse(options.url)) throw new Error(`${FIELD} is not a URL`);
    const url = new URL(options.url);
    this.#base = url.href.replace(/\/+$/, '');
    this.#limits = options.limits;
    // The operator chose this server: it may be on a private address the fetch policy refuses.
    const policy = options.policy ?? {
      ...policyFromEnv(),
      allow: parseAllowList([setting('LABLD_FETCH_ALLOW'), url.host].filter(Boolean).join(',')),
    };
    this.#queries = { ...policy, timeoutMs: options.limits.timeoutMs, maxRedirects: 0 };
    this.#loads = { ...policy, timeoutMs: LOAD_TIMEOUT_MS, maxRedirects: 0 };
  }

  async #send(
    path: string,
    init: {
      method?: 'GET' | 'POST' | 'PUT';
      body?: Readable | string;
      contentType?: string;
      accept?: string;
    },
    policy: FetchPolicy,
    signal?: AbortSignal,
  ): Promise<FetchedResource> {
    return guardedFetch(`${this.#base}/${path}`, { field: FIELD, policy, signal, ...init });
  }

  /** A SPARQL protocol request of labld's own (bookkeeping), answered as SPARQL JSON. */
  async #select(query: string): Promise<Record<string, ResultTerm>[]> {
    const response = await this.#send(
      'sparql',
      {
        method: 'POST',
        body: new URLSearchParams({ query }).toString(),
        contentType: FORM,
        accept: JSON_RESULTS,
      },
      this.#loads,
    ).catch(serverError);
    const json = JSON.parse(await response.text()) as { results: { bindings: Record<string, ResultTerm>[] } };
    return json.results.bindings;
  }

  async #update(
    update: string,
    policy = this.#loads,
    field: 'query' | 'update' = 'update',
    signal?: AbortSignal,
  ): Promise<void> {
    const response = await this.#send(
      'update',
      { method: 'POST', body: new URLSearchParams({ update }).toString(), contentType: FORM },
      policy,
      signal,
    ).catch((error: unknown) => rejected(error, field, this.#limits.timeoutMs));
    await response.bytes();
  }

  async replaceGraph(datasetId: string, graph: string, source: GraphSource): Promise<{ triples: number }> {
    checkDatasetId(datasetId);
    checkGraphIri(graph);
    const format = checkFormat(source.format);
    const owners = await this.#select(
      `SELECT ?d WHERE { GRAPH <${REGISTRY}> { ?d <${HAS_GRAPH}> <${graph}> } }`,
    );
    if (owners.some((row) => `<${row.d?.value}>` !== datasetNode(datasetId))) {
      throw conflict(`graph: <${graph}> belongs to another dataset`, 'graph');
    }
    const staging = `urn:labld:triplestore:staging:${randomUUID()}`;
    try {
      const response = await this.#send(
        `data?graph=${encodeURIComponent(staging)}`,
        {
          method: 'PUT',
          body: withBase(source, graph),
          contentType: format,
        },
        this.#loads,
      ).catch((error: unknown) => {
        if (error instanceof DomainError && status(error) === 400) {
          throw invalid(`body: not valid ${format} (the triple store refused it)`, 'body');
        }
        return serverError(error);
      });
      await response.bytes();
      const [count] = await this.#select(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${staging}> { ?s ?p ?o } }`);
      // One request, one transaction on the server: a query sees the old graph or the new one.
      await this.#update(
        `DROP SILENT GRAPH <${graph}> ; MOVE SILENT GRAPH <${staging}> TO GRAPH <${graph}> ; ` +
          `INSERT DATA { GRAPH <${REGISTRY}> { ${datasetNode(datasetId)} <${HAS_GRAPH}> <${graph}> } }`,
      ).catch(serverError);
      return { triples: Number(count?.n?.value ?? 0) };
    } finally {
      await this.#update(`DROP SILENT GRAPH <${staging}>`).catch(() => {});
    }
  }

  async dropGraph(datasetId: string, graph: string): Promise<boolean> {
    checkDatasetId(datasetId);
    checkGraphIri(graph);
    if (!(await this.graphs(datasetId)).includes(graph)) return false;
    await this.#update(
      `DROP SILENT GRAPH <${graph}> ; DELETE DATA { GRAPH <${REGISTRY}> { ${datasetNode(datasetId)} <${HAS_GRAPH}> <${graph}> } }`,
    ).catch(serverError);
    return true;
  }

  async dropDataset(datasetId: string): Promise<void> {
    checkDatasetId(datasetId);
    const graphs = await this.graphs(datasetId);
    if (graphs.length === 0) return;
    await this.#update(
      [
        ...graphs.map((g) => `DROP SILENT GRAPH <${g}>`),
        `DELETE WHERE { GRAPH <${REGISTRY}> { ${datasetNode(datasetId)} <${HAS_GRAPH}> ?g } }`,
      ].join(' ; '),
    ).catch(serverError);
  }

  async graphs(datasetId: string): Promise<string[]> {
    checkDatasetId(datasetId);
    const rows = await this.#select(
      `SELECT ?g WHERE { GRAPH <${REGISTRY}> { ${datasetNode(datasetId)} <${HAS_GRAPH}> ?g } }`,
    );
    return rows.map((row) => row.g!.value).sort();
  }

  async query(datasetId: string, text: string, options: QueryOptions = {}): Promise<QueryResult> {
    checkDatasetId(datasetId);
    const graphs = await this.graphs(datasetId);
    const guarded = guardQuery(text, graphs, this.#limits.maxResults, this.#limits.bounds);
    // Fuseki's own limit (seconds), so the server stops too when labld stops waiting.
    const params = new URLSearchParams({
      query: guarded.text,
      timeout: String(this.#limits.timeoutMs / 1000),
    });
    for (const g of guarded.defaultGraphs.length > 0 ? guarded.defaultGraphs : [EMPTY]) {
      params.append('default-graph-uri', g);
    }
    for (const g of guarded.namedGraphs) params.append('named-graph-uri', g);
    const graphForm = guarded.form === 'construct' || guarded.form === 'describe';
    // A SELECT in the type asked, written by the server and passed on as it is. A graph always
    // as N-Triples, whose triples are its lines (the server's Turtle nests, and only a parser
    // could count it): the gateway's render thread writes any other type from it.
    const table = options.formats?.table;
    const format = graphForm ? NTRIPLES : guarded.form === 'ask' ? JSON_RESULTS : tableFormat(table);
    const response = await this.#send(
      'sparql',
      { method: 'POST', body: params.toString(), contentType: FORM, accept: format },
      this.#queries,
      options.signal,
    ).catch((error: unknown) => rejected(error, 'query', this.#limits.timeoutMs));
    const body = await response
      .text()
      .catch((error: unknown) => rejected(error, 'query', this.#limits.timeoutMs));
    const limit = (what: string) =>
      tooLarge(
        `query: more than ${this.#limits.maxResults} ${what} (LABLD_SPARQL_MAX_RESULTS); add a LIMIT`,
        'query',
      );
    if (guarded.form === 'ask') {
      count('result.parse');
      return { type: 'ask', boolean: (JSON.parse(body) as { boolean?: boolean }).boolean === true };
    }
    // The server wrote the result.
    count('result.write');
    if (graphForm) {
      const triples = countTriples(body, NTRIPLES);
      if (triples > this.#limits.maxResults) throw limit('triples');
      return { type: 'graph', mediaType: NTRIPLES, text: body, triples };
    }
    const result = tableText(body, format, table);
    if (result.rows > this.#limits.maxResults) throw limit('results');
    return { type: 'select', ...result };
  }

  async update(datasetId: string, text: string, options: QueryOptions = {}): Promise<void> {
    checkDatasetId(datasetId);
    const guarded = guardUpdate(text, await this.graphs(datasetId), this.#limits.bounds);
    await this.#update(guarded.text, this.#queries, 'update', options.signal);
  }

  async ready(): Promise<void> {
    await this.#select('SELECT * WHERE {} LIMIT 1');
  }

  async close(): Promise<void> {}
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_RESULTS = 'application/sparql-results+json';

/**
 * The document with its base IRI in front: a GSP server resolves relative IRIs against its own
 * request URL otherwise. Turtle only (N-Triples has no relative IRIs); a later @base in the
 * document still wins, as it does when the embedded store is given the base.
 */
function withBase(source: GraphSource, graph: string): Readable {
  const body = source.body instanceof Readable ? source.body : Readable.from(source.body);
  if (source.format !== 'text/turtle') return body;
  const base = checkGraphIri(source.baseIri ?? graph);
  return Readable.from(
    (async function* () {
      yield Buffer.from(`@base <${base}> .\n`);
      yield* body;
    })(),
  );
}

function status(error: DomainError): number | undefined {
  return (error as { upstreamStatus?: number }).upstreamStatus;
}

/** The server failed labld's own request: unreachable, without its text. */
function serverError(error: unknown): never {
  if (error instanceof DomainError && error.field === FIELD) {
    throw unreachable(`the triple store (${FIELD}) failed: ${error.message.slice(FIELD.length + 2, 300)}`);
  }
  throw error;
}

/** A query or update the server refused (400: its SPARQL) or did not finish in time. */
function rejected(error: unknown, field: 'query' | 'update', timeoutMs: number): never {
  if (error instanceof DomainError && error.field === FIELD) {
    if (error.kind === 'upstream-timeout') {
      throw upstreamTimeout(
        `${field}: did not finish within ${timeoutMs} ms (LABLD_SPARQL_TIMEOUT_MS)`,
        field,
      );
    }
    if (status(error) === 400) throw invalid(`${field}: the triple store refused it as invalid`, field);
  }
  return serverError(error);
}

export function openRemoteTripleStore(options: RemoteTripleStoreOptions): TripleStore {
  return new RemoteTripleStore(options);
}
