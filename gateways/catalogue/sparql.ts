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
import { checkOut } from '../../lib/blobs/claim-check.ts';
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
import { checkOutResult, isStored, type ResultReply } from '../../lib/triplestore/result-claim.ts';
import { sameText } from '../../lib/triplestore/result-text.ts';
import {
  GRAPH_TYPES,
  acceptedTypes,
  choose,
  chosenType,
  renderResult,
  resultFormats,
} from '../../lib/triplestore/results.ts';
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
 * may is decided there): the endpoint's requests, and the query page's own queries. Without
 * `input.formats` a result comes as SPARQL JSON or N-Triples, which `bindingsOf` and N3 read.
 */
export async function sendSparql(
  runtime: Runtime,
  operation: SparqlOperation,
  input: SparqlInput,
  correlationId?: string,
): Promise<QueryResult | { type: 'update' }> {
  const reply = await requestSparql(runtime, operation, input, correlationId);
  return reply.type === 'update' ? reply : checkOutResult(runtime.blobs, reply);
}

/** The consumer's reply as it came: the result, or a large one's stored form (not read here). */
async function requestSparql(
  runtime: Runtime,
  operation: SparqlOperation,
  input: SparqlInput,
  correlationId?: string,
): Promise<ResultReply | { type: 'update' }> {
  if (input.text.length > MAX_SPARQL_CHARS) {
    throw tooLarge(`${operation}: longer than ${MAX_SPARQL_CHARS} characters`, operation);
  }
  const reply = await runtime.bus.request<unknown, unknown>(
    runtime.catalog.topicReadBy(SPARQL_GROUP).name,
    { operation, input },
    {
      timeoutMs: intSetting('LABLD_REQUEST_TIMEOUT_MS'),
      headers: correlationId ? { 'x-correlation-id': correlationId } : {},
    },
  );
  return (await checkOut(runtime.blobs, reply)) as ResultReply | { type: 'update' };
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

/**
 * The result in the type chosen from Accept before the query ran (and sent with it): the text the
 * store wrote in that type goes to the client as it is, a large one straight from its file in the
 * blob store, so that this thread neither parses nor writes it. What the store could not write
 * (results.ts resultPieces) is written by a render thread; an ASK's few bytes here.
 */
async function answer(runtime: Runtime, { asked, input, accept, correlationId }: Call) {
  const formats = resultFormats(accept);
  const reply = await requestSparql(
    runtime,
    asked.operation ?? 'query',
    { ...input, formats },
    correlationId,
  );
  if (reply.type === 'update') return { status: 204, headers } satisfies Result;
  const type = chosenType(reply.type, formats, accept);
  const contentType = `${type}; charset=utf-8`;
  if (reply.type === 'ask') {
    const rendered = await renderResult(reply, type);
    return { body: rendered.body, contentType, headers } satisfies Result;
  }
  if (sameText(reply.mediaType, type)) {
    const body = isStored(reply) ? runtime.blobs.open(reply.blob, 'result') : reply.text;
    return { body, contentType, headers } satisfies Result;
  }
  const source: ResultSource = isStored(reply)
    ? { stored: reply, path: runtime.blobs.path(reply.blob, 'result') }
    : { value: reply };
  const rendered = await renderStream(source, type);
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
