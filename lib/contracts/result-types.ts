// The media types a SPARQL query's result is written in, as a request carries them from the
// gateway (which chooses them from Accept) to the triple store (which writes them): SPARQL 1.1
// Protocol §2.1.5. No imports: the triple store's threads load this.

export const RESULT_TYPES = {
  json: 'application/sparql-results+json',
  xml: 'application/sparql-results+xml',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
} as const;

export const NTRIPLES = 'application/n-triples';
export const TURTLE = 'text/turtle';
export const JSON_LD = 'application/ld+json';

/** Media types a SELECT or ASK may be answered with, the default first. */
export const TABLE_TYPES = [
  RESULT_TYPES.json,
  'application/json',
  RESULT_TYPES.xml,
  'application/xml',
  RESULT_TYPES.csv,
  RESULT_TYPES.tsv,
] as const;
export type TableType = (typeof TABLE_TYPES)[number];

/** Media types a CONSTRUCT or DESCRIBE may be answered with, the default first. */
export const GRAPH_MEDIA_TYPES = [TURTLE, NTRIPLES, JSON_LD, 'application/rdf+xml'] as const;
export type GraphType = (typeof GRAPH_MEDIA_TYPES)[number];

/**
 * The media types a result is written in, chosen once from the client's Accept
 * (lib/triplestore/results.ts `resultFormats`): one for SELECT and ASK, one for CONSTRUCT and
 * DESCRIBE; undefined where the client accepts none of that form's. Default: SPARQL JSON and
 * N-Triples.
 */
export interface ResultFormats {
  table?: TableType;
  graph?: GraphType;
}
