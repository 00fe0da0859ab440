// The SPARQL 1.1 Protocol's request and error sides of a dataset endpoint: what a request asks
// (query or update, from the URL and the body together), the result format it asks for
// (`format`/`output`, else Accept), and its errors as protocol clients read them — 400 for a
// request the endpoint cannot take (SPARQLWrapper raises QueryBadFormed only on 400), 401 with
// a challenge, CORS on every answer.
import type { Context } from 'koa';
import { MAX_SPARQL_CHARS, type SparqlOperation } from '../../lib/contracts/triplestore.ts';
import { intSetting } from '../../lib/process/config.ts';
import { DomainError, invalid, unsupported } from '../../lib/process/errors.ts';
import { formatTypes } from '../../lib/triplestore/results.ts';
import { readText, toErrorAnswer } from '../kit/index.ts';
import type { RetryLater } from './sparql-auth.ts';

/** A form's bytes: the text's limit, percent-encoded (up to 3 bytes a character, 4 in UTF-8). */
const BODY_LIMIT = MAX_SPARQL_CHARS * 12;

/** The protocol's dataset parameters: the endpoint's dataset is fixed, FROM chooses among its graphs. */
const DATASET_PARAMS = ['default-graph-uri', 'named-graph-uri', 'using-graph-uri', 'using-named-graph-uri'];

/**
 * Any origin may read a dataset's endpoint (YASGUI and notebooks elsewhere), never with the
 * browser's cookie: without Access-Control-Allow-Credentials a page of another origin sees only
 * what its own `Authorization` (a token or Basic it holds) lets it see, so a private dataset
 * is open cross-origin only to whoever holds its reader's credentials.
 */
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'WWW-Authenticate',
};

export const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, POST',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept',
  'Access-Control-Max-Age': '600',
};

/** The challenges of a 401: Basic (a user name with a password or an API token), or a token. */
export const CHALLENGES = ['Basic realm="labld", charset="UTF-8"', 'Bearer realm="labld"'];

export interface Asked {
  /** Undefined: neither a query nor an update (a GET then gets the service description). */
  operation: SparqlOperation | undefined;
  text: string;
  /** The `format`/`output` values as an Accept list; undefined when none was given. */
  format: string | undefined;
}

type Fields = Record<string, string[]>;

function fieldsOf(text: string): Fields {
  // No prototype: a field named `__proto__` is a field like any other.
  const fields = Object.create(null) as Fields;
  for (const [name, value] of new URLSearchParams(text)) (fields[name] ??= []).push(value);
  return fields;
}

function one(fields: Fields, name: string): string | undefined {
  const values = fields[name];
  if (values === undefined) return undefined;
  if (values.length > 1) throw invalid(`${name}: given more than once`, name);
  return values[0];
}

/** The URL's and the body's fields as one: a field in both must say the same in both. */
function merged(url: Fields, body: Fields): Fields {
  const all = Object.assign(Object.create(null) as Fields, url);
  for (const [name, values] of Object.entries(body)) {
    const other = url[name];
    if (other && [...new Set(other)].sort().join('\n') !== [...new Set(values)].sort().join('\n')) {
      throw invalid(`${name}: the URL and the body give different values`, name);
    }
    all[name] = values;
  }
  return all;
}

/** `format` and `output` (Fuseki's, and SPARQLWrapper sends both) as one Accept list. */
function formatOf(fields: Fields): string | undefined {
  const values = [...(fields.format ?? []), ...(fields.output ?? [])];
  if (values.length === 0) return undefined;
  return [...new Set(values.flatMap(formatTypes))].join(', ');
}

function askedOf(fields: Fields, allowUpdate: boolean, body?: { operation: SparqlOperation; text: string }) {
  for (const name of DATASET_PARAMS) {
    if (fields[name] !== undefined) {
      throw invalid(`${name}: not supported here; name the dataset's graphs with FROM or GRAPH`, name);
    }
  }
  const format = formatOf(fields);
  const query = one(fields, 'query');
  const update = one(fields, 'update');
  if (body) {
    if (query !== undefined || update !== undefined) {
      const name = query !== undefined ? 'query' : 'update';
      throw invalid(`${name}: given in the URL and as the body; send it once`, name);
    }
    return { ...body, format };
  }
  if (query !== undefined && update !== undefined) {
    throw invalid('query: give either query or update, not both', 'query');
  }
  if (update !== undefined) {
    if (!allowUpdate) throw invalid('update: an update must be sent with POST', 'update');
    return { operation: 'update' as const, text: update, format };
  }
  return { operation: query === undefined ? undefined : ('query' as const), text: query ?? '', format };
}

export function fromGet(ctx: Context): Asked {
  return askedOf(fieldsOf(ctx.querystring), false);
}

export async function fromPost(ctx: Context): Promise<Asked> {
  const url = fieldsOf(ctx.querystring);
  const idle = intSetting('LABLD_BODY_IDLE_TIMEOUT_MS');
  const type = ctx.request.type;
  // The form read here, not with the kit's readForm: SPARQLWrapper repeats `format` in it.
  if (type === 'application/x-www-form-urlencoded') {
    const asked = askedOf(merged(url, fieldsOf(await readText(ctx, BODY_LIMIT, idle))), true);
    if (asked.operation === undefined) {
      throw invalid('query: missing (the SPARQL query, or `update` in a POST)', 'query');
    }
    return asked;
  }
  if (type === 'application/sparql-query' || type === 'application/sparql-update') {
    const operation = type === 'application/sparql-query' ? 'query' : 'update';
    return askedOf(url, true, { operation, text: await readText(ctx, BODY_LIMIT, idle) });
  }
  throw unsupported(
    `body: expected application/x-www-form-urlencoded, application/sparql-query or application/sparql-update, got ${type || 'nothing'}`,
    'body',
  );
}

/** Where the route leaves word that its caller came without credentials. */
const ANONYMOUS = Symbol('labld.sparqlAnonymous');
/** And that the result format came from `format`. */
const FORMAT_GIVEN = Symbol('labld.sparqlFormat');

export function noteRequest(ctx: Context, anonymous: boolean, asked: Asked | undefined): void {
  const state = ctx.state as Record<symbol, boolean>;
  state[ANONYMOUS] = anonymous;
  state[FORMAT_GIVEN] = asked?.format !== undefined;
}

/**
 * Every error of the endpoint as `{"detail"}` with CORS. Changed from the kit's statuses:
 * a request that is not valid (bad SPARQL, a missing or repeated parameter) is 400; a dataset
 * an anonymous caller cannot read — missing or private, told apart for no one — is 401 with the
 * challenge, so that a client with credentials sends them (git's answer over HTTP).
 */
export function sparqlErrors(error: unknown, ctx: Context) {
  const state = ctx.state as Record<symbol, boolean>;
  let { status, detail } = toErrorAnswer(error);
  if (error instanceof DomainError) {
    if (error.kind === 'invalid') status = 400;
    if (error.kind === 'not-found' && state[ANONYMOUS]) {
      status = 401;
      detail = `${detail} (or it is private: send an API token, or a user name and password with HTTP Basic)`;
    }
    if (error.kind === 'not-acceptable' && state[FORMAT_GIVEN])
      detail = detail.replace(/^Accept:/, 'format:');
  }
  const headers: Record<string, string | string[]> = { ...CORS_HEADERS };
  if (status === 401) headers['WWW-Authenticate'] = CHALLENGES;
  const retryAfter = (error as Partial<RetryLater>).retryAfter;
  if (status === 429 && retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
  return { status, json: { detail }, headers };
}
