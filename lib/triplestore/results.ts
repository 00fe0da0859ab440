// A query's result in the media type a SPARQL client asks for (SPARQL 1.1 Protocol §2.1.5):
// SELECT and ASK as SPARQL JSON, XML, CSV or TSV results; CONSTRUCT and DESCRIBE through the
// RDF formats module (Turtle, N-Triples, JSON-LD, RDF/XML). The choice follows the Accept
// header's order and q-values; what the client does not accept at all gets the default (JSON
// results, Turtle), as the protocol lets a service answer.
import { parse, serialize } from '../rdf/index.ts';
import type { RdfFormat } from '../rdf/index.ts';
import type { QueryResult, ResultTerm } from './contract.ts';

export const RESULT_TYPES = {
  json: 'application/sparql-results+json',
  xml: 'application/sparql-results+xml',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
} as const;

const GRAPH_TYPES: Record<string, RdfFormat> = {
  'text/turtle': 'turtle',
  'application/n-triples': 'nt',
  'application/ld+json': 'json-ld',
  'application/rdf+xml': 'xml',
};

/** Media types a SELECT or ASK may be answered with, the default first. */
const TABLE_TYPES: string[] = [
  RESULT_TYPES.json,
  'application/json',
  RESULT_TYPES.xml,
  'application/xml',
  RESULT_TYPES.csv,
  RESULT_TYPES.tsv,
];

export interface Rendered {
  body: string;
  contentType: string;
}

/** The media types of an Accept header, best first (q=0 left out; stable for equal q). */
export function acceptedTypes(accept: string | undefined): string[] {
  if (!accept) return [];
  return accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { type, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((t) => t.type !== '' && t.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((t) => t.type);
}

function choose(offered: string[], accept: string | undefined): string {
  for (const type of acceptedTypes(accept)) {
    if (offered.includes(type)) return type;
    const [major] = type.split('/');
    const wild = offered.find((o) => type === '*/*' || (type.endsWith('/*') && o.startsWith(`${major}/`)));
    if (wild) return wild;
  }
  return offered[0]!;
}

export async function renderResult(result: QueryResult, accept: string | undefined): Promise<Rendered> {
  if (result.type === 'graph') {
    const type = choose(Object.keys(GRAPH_TYPES), accept);
    const format = GRAPH_TYPES[type]!;
    const body =
      format === 'nt' ? result.ntriples : await serialize(await parse(result.ntriples, 'nt'), format);
    return { body, contentType: `${type}; charset=utf-8` };
  }
  const type = choose(TABLE_TYPES, accept);
  const contentType = `${type}; charset=utf-8`;
  switch (type) {
    case RESULT_TYPES.xml:
    case 'application/xml':
      return { body: xmlResults(result), contentType };
    case RESULT_TYPES.csv:
      return { body: separated(result, ',', csvCell, (v) => v, '\r\n'), contentType };
    case RESULT_TYPES.tsv:
      return { body: separated(result, '\t', tsvCell, (v) => `?${v}`, '\n'), contentType };
    default:
      return { body: JSON.stringify(jsonResults(result)), contentType };
  }
}

type TableResult = Exclude<QueryResult, { type: 'graph' }>;

/** https://www.w3.org/TR/sparql11-results-json/ */
export function jsonResults(result: TableResult): unknown {
  if (result.type === 'ask') return { head: {}, boolean: result.boolean };
  return { head: { vars: result.variables }, results: { bindings: result.bindings } };
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const xml = (text: string) => text.replace(/[&<>"]/g, (c) => XML_ESCAPES[c]!);

function xmlTerm(term: ResultTerm): string {
  switch (term.type) {
    case 'uri':
      return `<uri>${xml(term.value)}</uri>`;
    case 'bnode':
      return `<bnode>${xml(term.value)}</bnode>`;
    case 'literal': {
      const lang = term['xml:lang'] ? ` xml:lang="${xml(term['xml:lang'])}"` : '';
      const datatype = term.datatype ? ` datatype="${xml(term.datatype)}"` : '';
      return `<literal${lang}${datatype}>${xml(term.value)}</literal>`;
    }
    default:
      // RDF 1.2 triple terms have no XML results syntax yet: their N-Triples text as a literal.
      return `<literal>${xml(term.value)}</literal>`;
  }
}

/** https://www.w3.org/TR/rdf-sparql-XMLres/ */
export function xmlResults(result: TableResult): string {
  const head =
    '<?xml version="1.0" encoding="utf-8"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n';
  if (result.type === 'ask') return `${head}  <head/>\n  <boolean>${result.boolean}</boolean>\n</sparql>\n`;
  const vars = result.variables.map((v) => `    <variable name="${xml(v)}"/>\n`).join('');
  const rows = result.bindings
    .map((row) => {
      const cells = Object.entries(row)
        .map(([name, term]) => `      <binding name="${xml(name)}">${xmlTerm(term)}</binding>\n`)
        .join('');
      return `    <result>\n${cells}    </result>\n`;
    })
    .join('');
  return `${head}  <head>\n${vars}  </head>\n  <results>\n${rows}  </results>\n</sparql>\n`;
}

/** SPARQL 1.1 CSV: plain values, RFC 4180 quoting, CRLF lines. */
function csvCell(term: ResultTerm | undefined): string {
  if (!term) return '';
  const value = term.type === 'bnode' ? `_:${term.value}` : term.value;
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const escapeString = (s: string) =>
  s.replace(/[\\"\n\r\t]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c]!);

/** SPARQL 1.1 TSV: terms in their SPARQL syntax, LF lines. */
function tsvCell(term: ResultTerm | undefined): string {
  if (!term) return '';
  switch (term.type) {
    case 'uri':
      return `<${term.value}>`;
    case 'bnode':
      return `_:${term.value}`;
    case 'literal': {
      const text = `"${escapeString(term.value)}"`;
      if (term['xml:lang']) return `${text}@${term['xml:lang']}`;
      if (term.datatype && term.datatype !== 'http://www.w3.org/2001/XMLSchema#string')
        return `${text}^^<${term.datatype}>`;
      return text;
    }
    default:
      return term.value;
  }
}

function separated(
  result: TableResult,
  separator: string,
  cell: (term: ResultTerm | undefined) => string,
  header: (variable: string) => string,
  eol: string,
): string {
  // ASK has no CSV/TSV form in the standard; Jena's (a one-cell table) is the one clients know.
  if (result.type === 'ask') return `${header('_askResult')}${eol}${result.boolean}${eol}`;
  const lines = [result.variables.map(header).join(separator)];
  for (const row of result.bindings) lines.push(result.variables.map((v) => cell(row[v])).join(separator));
  return `${lines.join(eol)}${eol}`;
}
