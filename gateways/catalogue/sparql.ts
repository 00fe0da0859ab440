// A dataset's SPARQL endpoint, `/dataset/{id}/triplestore/sparql`, in the SPARQL 1.1 Protocol:
// GET `?query=`, POST a form (`query=` or `update=`), `application/sparql-query` or
// `application/sparql-update`. The gateway only reads the request: what is a query and what is
// an update comes from the protocol's own fields, never from the path or the method (the
// original's weak point, research §2.10); who may is decided by the catalogue's `authorize` in
// the triplestore-requests consumer; the answer is written here in the type the client accepts.
// Nothing of the client's headers goes further than its credential (as hashes), and nothing of
// a store's headers comes back.
import type { Context } from 'koa';
import { checkOut, claimedPath } from '../../lib/blobs/claim-check.ts';
import { credentialOf, type Credential } from '../../lib/catalogue/auth/actor.ts';
import {
  MAX_SPARQL_CHARS,
  SPARQL_GROUP,
  type SparqlInput,
  type SparqlOperation,
} from '../../lib/contracts/triplestore.ts';
import { intSetting } from '../../lib/process/config.ts';
import { invalid, tooLarge, unsupported } from '../../lib/process/errors.ts';
import type { Runtime } from '../../lib/process/runtime.ts';
import { baseUrl } from '../../lib/services.ts';
import type { QueryResult } from '../../lib/triplestore/contract.ts';
import { renderStream, type ResultSource } from '../../lib/triplestore/render.ts';
import { renderResult } from '../../lib/triplestore/results.ts';
import { readForm, readText, route, type Result, type Route } from '../kit/index.ts';

export const SPARQL_PATH = '/dataset/{id}/triplestore/sparql';

/** A form's bytes: the text's limit, percent-encoded (up to 3 bytes a character, 4 in UTF-8). */
const BODY_LIMIT = MAX_SPARQL_CHARS * 12;

/** The protocol's dataset parameters: the endpoint's dataset is fixed, FROM chooses among its graphs. */
const DATASET_PARAMS = ['default-graph-uri', 'named-graph-uri', 'using-graph-uri', 'using-named-graph-uri'];

interface Asked {
  operation: SparqlOperation;
  text: string;
}

function one(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`${name}: given more than once`, name);
  return value;
}

function fromFields(fields: Record<string, unknown>, allowUpdate: boolean): Asked {
  for (const name of DATASET_PARAMS) {
    if (fields[name] !== undefined) {
      throw invalid(`${name}: not supported here; name the dataset's graphs with FROM or GRAPH`, name);
    }
  }
  const query = one(fields, 'query');
  const update = one(fields, 'update');
  if (query !== undefined && update !== undefined) {
    throw invalid('query: give either query or update, not both', 'query');
  }
  if (update !== undefined) {
    if (!allowUpdate) throw invalid('update: an update must be sent with POST', 'update');
    return { operation: 'update', text: update };
  }
  if (query === undefined) throw invalid('query: missing (the SPARQL query, or `update` in a POST)', 'query');
  return { operation: 'query', text: query };
}

async function fromPost(ctx: Context): Promise<Asked> {
  const idle = intSetting('LABLD_BODY_IDLE_TIMEOUT_MS');
  switch (ctx.request.type) {
    case 'application/x-www-form-urlencoded':
      return fromFields(await readForm(ctx, BODY_LIMIT, idle), true);
    case 'application/sparql-query':
      return { operation: 'query', text: await readText(ctx, BODY_LIMIT, idle) };
    case 'application/sparql-update':
      return { operation: 'update', text: await readText(ctx, BODY_LIMIT, idle) };
    default:
      throw unsupported(
        `body: expected application/x-www-form-urlencoded, application/sparql-query or application/sparql-update, got ${ctx.request.type || 'nothing'}`,
        'body',
      );
  }
}

/**
 * The caller: an API token always; the session cookie for GET, and for POST only from our own
 * pages (`Sec-Fetch-Site: same-origin`), so that a cross-site form cannot update as its victim.
 */
function credential(ctx: Context): Credential {
  const header = (name: string) => ctx.get(name) || undefined;
  const cookieCounts = ctx.method === 'GET' || ctx.get('sec-fetch-site') === 'same-origin';
  return credentialOf(
    {
      authorization: header('authorization'),
      'x-ckan-api-key': header('x-ckan-api-key'),
      cookie: cookieCounts ? header('cookie') : undefined,
    },
    baseUrl().startsWith('https:'),
  );
}

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

async function answer(runtime: Runtime, ctx: Context, id: string, asked: Asked, correlationId: string) {
  const input: SparqlInput = { credential: credential(ctx), id, text: asked.text };
  const reply = await requestSparql(runtime, asked.operation, input, correlationId);
  const headers = { 'Cache-Control': 'no-store', Vary: 'Accept, Authorization, Cookie' };
  const accept = ctx.get('accept') || undefined;
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

const PARAMS = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
  required: ['id'],
};

const RESPONSES = {
  200: {
    description:
      'SELECT/ASK: SPARQL JSON, XML, CSV or TSV results; CONSTRUCT/DESCRIBE: Turtle, N-Triples, JSON-LD or RDF/XML (by Accept)',
  },
  204: { description: 'the update was applied' },
  401: { description: 'an update without a login or token' },
  403: { description: 'not allowed for this user, or the query names something outside the dataset' },
  404: { description: 'no such dataset (or a private one the caller may not read)' },
  413: { description: 'the query, or its result, is larger than the limit' },
  415: { description: 'a POST body that is neither a form nor a SPARQL query or update' },
  422: { description: 'not valid SPARQL, or a missing or repeated parameter' },
  504: { description: 'past the time limit (LABLD_SPARQL_TIMEOUT_MS)' },
};

export function sparqlRoutes(runtime: Runtime): Route[] {
  return [
    route<Record<string, unknown>, unknown, { id: string }>({
      method: 'GET',
      path: SPARQL_PATH,
      summary: "The dataset's SPARQL endpoint: a query in `query`",
      params: PARAMS,
      responses: RESPONSES,
      handler: (input, ctx) =>
        answer(runtime, ctx, input.params.id, fromFields(input.query, false), input.correlationId),
    }),
    route<Record<string, unknown>, unknown, { id: string }>({
      method: 'POST',
      path: SPARQL_PATH,
      summary: "The dataset's SPARQL endpoint: a query or an update (form, sparql-query, sparql-update)",
      params: PARAMS,
      responses: RESPONSES,
      handler: async (input, ctx) =>
        answer(runtime, ctx, input.params.id, await fromPost(ctx), input.correlationId),
    }),
  ];
}
