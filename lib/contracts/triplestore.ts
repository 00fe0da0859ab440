// The triple store's two topics. The load topic carries "bring this dataset's graphs in step
// with the catalogue" (the load button, or a change to a loaded dataset's resources), keyed by
// the dataset id so that one dataset's loads run one after the other; the request topic carries
// the SPARQL endpoint's queries and updates, with the caller's hash-only credential, answered by
// the consumer that owns the triple store. schemas/triplestore-*.schema.json are these schemas
// written out by tools/contracts.ts.
import type { WireCredential } from './catalogue.ts';
import { CREDENTIAL_SCHEMA } from './catalogue.ts';
import { SCHEMA_BASE } from './requests.ts';
import { GRAPH_MEDIA_TYPES, TABLE_TYPES, type ResultFormats } from './result-types.ts';

/** The consumer group of the load topic (DESIGN §2: load-triplestore). */
export const LOAD_GROUP = 'load-triplestore';
/** The catalogue outbox's name for a LoadEvent (consumers/outbox.ts publishes it to LOAD_GROUP's topic). */
export const LOAD_EVENT = 'triplestore.load';
/** The consumer group of the SPARQL request topic. */
export const SPARQL_GROUP = 'triplestore-requests';

/**
 * `load`: the load button — every loadable resource replaces its graph, graphs of resources
 * gone are dropped, the endpoint resource is registered. `sync`: a loaded dataset's resources
 * changed (or the dataset was deleted): the same, but a dataset never loaded stays unloaded.
 */
export type LoadReason = 'load' | 'sync';

export interface LoadEvent {
  dataset_id: string;
  reason: LoadReason;
  /**
   * Load the rows too (each source's describe graph, `<base>.ttl`) or not; absent (a sync, an
   * autoload): as the dataset is loaded now, so that a change does not drop rows asked for.
   */
  rows?: boolean;
}

/** Longest query or update text the endpoint takes (its request travels inline on the bus). */
export const MAX_SPARQL_CHARS = 100_000;

export interface SparqlInput {
  credential: WireCredential;
  /** The dataset's id or name, as in the endpoint's path. */
  id: string;
  /** The query (operation `query`) or the update (operation `update`). */
  text: string;
  /**
   * The media types to write a query's result in, chosen by the gateway from the client's Accept
   * (lib/triplestore/results.ts): `table` for SELECT and ASK, `graph` for CONSTRUCT and DESCRIBE.
   */
  formats?: ResultFormats;
}

export type SparqlOperation = 'query' | 'update';

export const LOAD_EVENT_FILE = 'triplestore-load.schema.json';
export const SPARQL_REQUEST_FILE = 'triplestore-request.schema.json';

const GENERATED =
  'Generated from lib/contracts/triplestore.ts by tools/contracts.ts: edit that, not this file.';

export function loadEventSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${SCHEMA_BASE}${LOAD_EVENT_FILE}`,
    title: 'triple store load',
    description: `Bring a dataset's graphs in the triple store in step with the catalogue. ${GENERATED}`,
    type: 'object',
    required: ['dataset_id', 'reason'],
    additionalProperties: false,
    properties: {
      dataset_id: { type: 'string', minLength: 1, maxLength: 100 },
      reason: { enum: ['load', 'sync'] },
      rows: { type: 'boolean' },
    },
  };
}

export function sparqlRequestSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${SCHEMA_BASE}${SPARQL_REQUEST_FILE}`,
    title: 'SPARQL request',
    description: `A query or an update sent to a dataset's SPARQL endpoint. ${GENERATED}`,
    type: 'object',
    required: ['operation', 'input'],
    additionalProperties: false,
    properties: {
      operation: { enum: ['query', 'update'] },
      input: {
        type: 'object',
        additionalProperties: false,
        required: ['credential', 'id', 'text'],
        properties: {
          credential: CREDENTIAL_SCHEMA,
          id: { type: 'string', minLength: 1, maxLength: 100 },
          text: { type: 'string', maxLength: MAX_SPARQL_CHARS },
          formats: {
            type: 'object',
            additionalProperties: false,
            properties: {
              table: { enum: [...TABLE_TYPES] },
              graph: { enum: [...GRAPH_MEDIA_TYPES] },
            },
          },
        },
      },
    },
  };
}

export const loadEventSchemaText = () => `${JSON.stringify(loadEventSchema(), null, 2)}\n`;
export const sparqlRequestSchemaText = () => `${JSON.stringify(sparqlRequestSchema(), null, 2)}\n`;
