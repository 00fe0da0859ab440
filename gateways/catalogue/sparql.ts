// A dataset's SPARQL endpoint, `/dataset/{id}/triplestore/sparql`, in the SPARQL 1.1 Protocol:
// GET `?query=`, POST a form (`query=` or `update=`), `application/sparql-query` or
// `application/sparql-update`. The gateway only reads the request: what is a query and what is
// an update comes from the protocol's own fields, never from the path or the method (the
// original's weak point, research §2.10); who may is decided by the catalogue's `authorize` in
// the triplestore-requests consumer; the answer is written here in the type the client accepts.
// Nothing of the client's headers goes further than its credential (as hashes), and nothing of
// a store's headers comes back. The protocol's reading, errors and CORS: sparql-protocol.ts;
// who asks (token, cookie, HTTP Basic): sparql-auth.ts.
import type { Context } from 'koa';
import { checkOut, claimedPath } from '../../lib/blobs/claim-check.ts';
import {
  MAX_SPARQL_CHARS,
  SPARQL_GROUP,
  type SparqlInput,
  type SparqlOperation,
} from '../../lib/contracts/triplestore.ts';
import { intSetting } from '../../lib/process/config.ts';
import { tooLarge } from '../../lib/process/errors.ts';
import type { Runtime } from '../../app/runtime.ts';
import { serialize } from '../../lib/rdf/index.ts';
import { baseUrl } from '../../lib/services.ts';
import { bindingsOf, type QueryResult } from '../../lib/triplestore/contract.ts';
import { renderStream, type ResultSource } from '../../lib/triplestore/render.ts';
import { GRAPH_TYPES, acceptedTypes, choose, renderResult } from '../../lib/triplestore/results.ts';
import { SD_PREFIXES, serviceDescription } from '../../lib/triplestore/service-description.ts';
import { route, type Result, type Route } from '../kit/index.ts';
import type { Accounts } from './accounts.ts';
import { EndpointCredentials } from './sparql-auth.ts';
import {
  CORS_HEADERS,
  PREFLIGHT_HEADERS,
  fromGet,
  fromPost,
  noteRequest,
  sparqlErrors,
  type Asked,
} from './sparql-protocol.ts';

export const SPARQL_PATH = '/dataset/{id}/triplestore/sparql';

/**
 * A query or an update for a dataset, sent to the triple store's consumer as `credential` (who
 * may is decided there): the endpoint's requests, and the query page's own queries.
 */
export async function sendSparql(
  runtime: Runtime,
  operation: SparqlOperation,
  input: SparqlInput,
  correlationId?: string,
): Promise<QueryResult | { type: 'update' }> {
  const reply = await requestSparql(runtime, operation, input, correlationId);
  return (await checkOut(runtime.blobs, reply)) as QueryResult | { type: 'update' };
}

/** The consumer's reply as it came: the result, or the claim on a large one (not read here). */
async function requestSparql(
  runtime: Runtime,
  operation: SparqlOperation,
  input: SparqlInput,
  correlationId?: string,
): Promise<unknown> {
  if (input.text.length > MAX_SPARQL_CHARS) {
    throw tooLarge(`${operation}: longer than ${MAX_SPARQL_CHARS} characters`, operation);
  }
  return runtime.bus.request<unknown, unknown>(
    runtime.catalog.topicReadBy(SPARQL_GROUP).name,
    { operation, input },
    {
      timeoutMs: intSetting('LABLD_REQUEST_TIMEOUT_MS'),
      headers: correlationId ? { 'x-correlation-id': correlationId } : {},
    },
  );
}

/** One request to the endpoint, read: who asks for what, in which types (`format`, else Accept). */
interface Call {
  id: string;
  asked: Asked;
  input: SparqlInput;
  accept: string | undefined;
  correlationId: string;
}

const headers = { 'Cache-Control': 'no-store', Vary: 'Accept, Authorization, Cookie', ...CORS_HEADERS };

async function answer(runtime: Runtime, { asked, input, accept, correlationId }: Call) {
  const reply = await requestSparql(runtime, asked.operation ?? 'query', input, correlationId);
  // A large result (a claim) is read and written by a render thread, never by this one; so is
  // any graph (JSON-LD of a few thousand triples takes jsonld.js 0.1 s). A small table is a few
  // string joins.
  const path = claimedPath(runtime.blobs, reply);
  if (path === undefined) {
    const result = reply as QueryResult | { type: 'update' };
    if (result.type === 'update') return { status: 204, headers } satisfies Result;
    if (result.type !== 'graph') {
      const rendered = await renderResult(result, accept);
      return { body: rendered.body, contentType: rendered.contentType, headers } satisfies Result;
    }
  }
  const source: ResultSource = path === undefined ? { value: reply as QueryResult } : { path };
  const rendered = await renderStream(source, accept);
  return { body: rendered.body, contentType: rendered.contentType, headers } satisfies Result;
}

/** The named graphs the service description lists (a dataset has one per loaded resource). */
const GRAPHS_QUERY = 'SELECT DISTINCT ?g WHERE { GRAPH ?g { } } ORDER BY ?g LIMIT 10000';

/**
 * A GET without a query: a browser (HTML first in its Accept) is sent to the dataset's query
 * page; anyone else gets the SPARQL 1.1 Service Description, to whoever may read the dataset.
 */
async function describe(runtime: Runtime, { id, asked, input, accept, correlationId }: Call) {
  const [first] = acceptedTypes(accept);
  if (asked.format === undefined && (first === 'text/html' || first === 'application/xhtml+xml')) {
    return { redirect: `/dataset/${encodeURIComponent(id)}/query`, headers: CORS_HEADERS } satisfies Result;
  }
  const type = choose(Object.keys(GRAPH_TYPES), accept);
  const result = await sendSparql(runtime, 'query', { ...input, text: GRAPHS_QUERY }, correlationId);
  const graphs =
    result.type === 'select' ? bindingsOf(result).flatMap((row) => (row.g ? [row.g.value] : [])) : [];
  const endpoint = `${baseUrl()}/dataset/${encodeURIComponent(id)}/triplestore/sparql`;
  const text = await serialize(serviceDescription(endpoint, graphs), GRAPH_TYPES[type]!, {
    prefixes: SD_PREFIXES,
  });
  return { body: text, contentType: `${type}; charset=utf-8`, headers } satisfies Result;
}

const PARAMS = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
  required: ['id'],
};

const RESPONSES = {
  200: {
    description:
      'SELECT/ASK: SPARQL JSON, XML, CSV or TSV results; CONSTRUCT/DESCRIBE: Turtle, N-Triples, JSON-LD or RDF/XML (by `format` or Accept); no query: the SPARQL 1.1 Service Description',
  },
  204: { description: 'the update was applied' },
  303: { description: "a browser without a query: to the dataset's query page" },
  400: { description: 'not valid SPARQL, or a missing, repeated or contradictory parameter' },
  401: {
    description:
      'an update without credentials, a dataset anonymous may not read (missing or private), or wrong credentials; with WWW-Authenticate',
  },
  403: { description: 'not allowed for this user, or the query names something outside the dataset' },
  404: { description: 'no such dataset (or a private one the caller may not read)' },
  406: { description: 'no result format of those the Accept header or `format` names' },
  413: { description: 'the query, or its result, is larger than the limit' },
  415: { description: 'a POST body that is neither a form nor a SPARQL query or update' },
  504: { description: 'past the time limit (LABLD_SPARQL_TIMEOUT_MS)' },
};

export function sparqlRoutes(runtime: Runtime, accounts?: Accounts): Route[] {
  const credentials = new EndpointCredentials(accounts);
  const handle = async (
    ctx: Context,
    id: string,
    read: () => Asked | Promise<Asked>,
    correlationId: string,
  ) => {
    // Who asks is noted first: an error while reading the rest still knows whether to challenge.
    noteRequest(ctx, ctx.get('authorization') === '' && ctx.get('x-ckan-api-key') === '', undefined);
    const credential = await credentials.of(ctx);
    noteRequest(ctx, credential.kind === 'anonymous', undefined);
    const asked = await read();
    noteRequest(ctx, credential.kind === 'anonymous', asked);
    const input: SparqlInput = { credential, id, text: asked.text };
    const call = {
      id,
      asked,
      input,
      correlationId,
      accept: asked.format ?? (ctx.get('accept') || undefined),
    };
    return asked.operation === undefined ? describe(runtime, call) : answer(runtime, call);
  };
  const methods = [
    ['GET', 'a query in `query`; without one, the service description', fromGet],
    ['POST', 'a query or an update (form, sparql-query, sparql-update)', fromPost],
  ] as const;
  return [
    ...methods.map(([method, summary, read]) =>
      route<Record<string, unknown>, unknown, { id: string }>({
        method,
        path: SPARQL_PATH,
        summary: `The dataset's SPARQL endpoint: ${summary}`,
        params: PARAMS,
        responses: RESPONSES,
        errors: sparqlErrors,
        handler: (input, ctx) => handle(ctx, input.params.id, () => read(ctx), input.correlationId),
      }),
    ),
    route<Record<string, unknown>, unknown, { id: string }>({
      method: 'OPTIONS',
      path: SPARQL_PATH,
      summary: 'CORS preflight: any origin may send GET and POST with Authorization and Content-Type',
      params: PARAMS,
      responses: { 204: { description: 'the CORS headers' } },
      handler: () => ({ status: 204, headers: PREFLIGHT_HEADERS }),
    }),
  ];
}
