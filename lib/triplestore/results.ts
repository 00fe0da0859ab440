// A query's result in the media type a SPARQL client asks for (SPARQL 1.1 Protocol §2.1.5):
// SELECT and ASK as SPARQL JSON, XML, CSV or TSV results; CONSTRUCT and DESCRIBE through the
// RDF formats module (Turtle, N-Triples, JSON-LD, RDF/XML). The choice follows the Accept
// header's order and q-values; no Accept gets the default (JSON results, Turtle), an Accept
// that names none of them 406 (`not-acceptable`), as the protocol's clients expect.
import { Parser, type Quad } from 'n3';
import { DEFAULT_PREFIXES, STREAMED_FORMATS, parse, serialize, serializeStream } from '../rdf/index.ts';
import type { RdfFormat } from '../rdf/index.ts';
import { notAcceptable } from '../process/errors.ts';
import { count } from '../process/counters.ts';
import type { Binding, QueryResult, ResultFormats, ResultTerm } from './contract.ts';
import {
  NTRIPLES,
  RESULT_TYPES,
  TABLE_TYPES,
  sameText,
  type GraphType,
  type TableType,
} from './result-text.ts';

export { RESULT_TYPES };

export const GRAPH_TYPES: Record<string, RdfFormat> & Record<GraphType, RdfFormat> = {
  'text/turtle': 'turtle',
  'application/n-triples': 'nt',
  'application/ld+json': 'json-ld',
  'application/rdf+xml': 'xml',
};

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

/** The offered type the Accept header likes best; its default without one; 406 when it names none. */
export function choose(offered: string[], accept: string | undefined, what = 'Accept'): string {
  const accepted = acceptedTypes(accept);
  if (accepted.length === 0) return offered[0]!;
  for (const type of accepted) {
    if (offered.includes(type)) return type;
    const [major] = type.split('/');
    const wild = offered.find((o) => type === '*/*' || (type.endsWith('/*') && o.startsWith(`${major}/`)));
    if (wild) return wild;
  }
  throw notAcceptable(
    `${what}: none of ${accepted.join(', ')} is offered here; one of ${offered.join(', ')}`,
    what,
  );
}

/**
 * The short names of the `format` (or `output`) parameter as SPARQLWrapper, Fuseki and
 * Virtuoso users write them; one name serves both query forms (`xml`: XML results for a
 * SELECT, RDF/XML for a CONSTRUCT), so it stands for the types of both.
 */
const FORMAT_NAMES: Record<string, string[]> = {
  json: [RESULT_TYPES.json, 'application/ld+json'],
  xml: [RESULT_TYPES.xml, 'application/rdf+xml'],
  csv: [RESULT_TYPES.csv],
  tsv: [RESULT_TYPES.tsv],
  turtle: ['text/turtle'],
  ttl: ['text/turtle'],
  // A Turtle document is N3.
  n3: ['text/turtle'],
  nt: ['application/n-triples'],
  ntriples: ['application/n-triples'],
  'n-triples': ['application/n-triples'],
  rdf: ['application/rdf+xml'],
  'rdf+xml': ['application/rdf+xml'],
  'json-ld': ['application/ld+json'],
  jsonld: ['application/ld+json'],
};

/**
 * The media types one `format` value names: a short name, or media types as in Accept (what
 * SPARQLWrapper adds for TSV, JSON-LD and RDF/XML). A name not known is 406 naming `format`.
 */
export function formatTypes(value: string): string[] {
  const named = FORMAT_NAMES[value.trim().toLowerCase()];
  if (named) return named;
  const types = value.includes('/') ? acceptedTypes(value) : [];
  if (types.length === 0) {
    throw notAcceptable(
      `format: ${JSON.stringify(value.slice(0, 100))} is not a format offered here; one of ${Object.keys(FORMAT_NAMES).join(', ')} or a media type`,
      'format',
    );
  }
  return types;
}

/** The types offered for a result of this form. */
const offeredFor = (type: QueryResult['type']): string[] =>
  type === 'graph' ? Object.keys(GRAPH_TYPES) : [...TABLE_TYPES];

/** The media type `result` is answered in for this Accept header. */
export function resultType(result: QueryResult, accept: string | undefined): string {
  return choose(offeredFor(result.type), accept);
}

/**
 * The types a query's result is to be written in, chosen once from Accept before the query runs
 * (its form is not known yet: one type for each form). An Accept that names none of either is
 * 406 at once; one that names only one form's is 406 by `chosenType` if the query is the other.
 */
export function resultFormats(accept: string | undefined): ResultFormats {
  const either = (offered: string[]) => {
    try {
      return choose(offered, accept);
    } catch {
      return undefined;
    }
  };
  const table = either([...TABLE_TYPES]) as TableType | undefined;
  const graph = either(Object.keys(GRAPH_TYPES)) as GraphType | undefined;
  if (table === undefined && graph === undefined)
    choose([...TABLE_TYPES, ...Object.keys(GRAPH_TYPES)], accept);
  return { ...(table ? { table } : {}), ...(graph ? { graph } : {}) };
}

/** The type chosen for a result of this form; 406 when Accept named none of that form's. */
export function chosenType(
  type: QueryResult['type'],
  formats: ResultFormats,
  accept: string | undefined,
): string {
  return (type === 'graph' ? formats.graph : formats.table) ?? choose(offeredFor(type), accept);
}

/** Rows or N-Triples lines handed on at a time: the answer is written as it is made. */
const ROWS = 2000;
/** Characters of a text handed on at a time. */
const PIECE = 1 << 16;

/**
 * The text of `result` in media type `type` (one of `resultType`'s), piece by piece. The text the
 * store wrote in that type goes as it is. The rest is what a store cannot write, written here
 * from its SPARQL JSON or N-Triples: an ASK (a few bytes), a graph as RDF/XML (result-text.ts
 * `graphFormat` says why), a graph from Fuseki in any type but N-Triples (its Turtle nests: only
 * a parser could count its triples), and any type a store did not write. Rows and triples as they come, except JSON-LD and RDF/XML,
 * which lib/rdf writes from the whole graph. Run by the render worker (render.ts) for anything
 * large.
 */
export async function* resultPieces(result: QueryResult, type: string): AsyncGenerator<string> {
  if (result.type !== 'ask' && sameText(result.mediaType, type)) {
    for (let i = 0; i < result.text.length; i += PIECE) yield result.text.slice(i, i + PIECE);
    return;
  }
  count('result.write');
  if (result.type === 'graph') {
    const format = GRAPH_TYPES[type] ?? 'turtle';
    count('result.parse');
    if (result.mediaType !== NTRIPLES) {
      yield await serialize(await parse(result.text, GRAPH_TYPES[result.mediaType] ?? 'turtle'), format);
    } else if (STREAMED_FORMATS.has(format)) {
      yield* serializeStream(quadBatches(result.text), format, { prefixes: usedDefaults(result.text) });
    } else yield await serialize(await parse(result.text, 'nt'), format);
    return;
  }
  const table: Table = result.type === 'ask' ? result : tableOf(result.text, result.mediaType);
  if (sameText(type, RESULT_TYPES.json)) yield JSON.stringify(jsonResults(table));
  else if (type === RESULT_TYPES.csv) yield* separated(table, ',', csvCell, (v) => v, '\r\n');
  else if (type === RESULT_TYPES.tsv) yield* separated(table, '\t', tsvCell, (v) => `?${v}`, '\n');
  else yield* xmlResults(table);
}

/** A SELECT's variables and rows, read from its SPARQL JSON (the only table text read back). */
function tableOf(text: string, mediaType: string): Table {
  if (!sameText(mediaType, RESULT_TYPES.json)) {
    throw new Error(`a SELECT result written as ${mediaType} cannot be written in another type`);
  }
  count('result.parse');
  const json = JSON.parse(text) as { head?: { vars?: string[] }; results?: { bindings?: Binding[] } };
  return { type: 'select', variables: json.head?.vars ?? [], bindings: json.results?.bindings ?? [] };
}

/** The whole text at once (small results, and tests). */
export async function renderResult(result: QueryResult, accept: string | undefined): Promise<Rendered> {
  const type = resultType(result, accept);
  let body = '';
  for await (const piece of resultPieces(result, type)) body += piece;
  return { body, contentType: `${type}; charset=utf-8` };
}

/** N-Triples text in pieces of ROWS lines. */
function* lineBatches(ntriples: string): Generator<string> {
  let start = 0;
  while (start < ntriples.length) {
    let end = start;
    for (let n = 0; n < ROWS && end !== -1; n++) end = ntriples.indexOf('\n', end + 1);
    const stop = end === -1 ? ntriples.length : end + 1;
    yield ntriples.slice(start, stop);
    start = stop;
  }
}

/** The triples, ROWS at a time; blank node labels kept across pieces (one fixed prefix). */
function* quadBatches(ntriples: string): Generator<Quad[]> {
  for (const lines of lineBatches(ntriples)) {
    yield new Parser({ format: 'N-Triples', blankNodePrefix: 'b' }).parse(lines);
  }
}

/** lib/rdf's default prefixes whose namespace the graph uses (a stream declares them first). */
function usedDefaults(ntriples: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(DEFAULT_PREFIXES).filter(([, iri]) => ntriples.includes(`<${iri}`)),
  );
}

/** A SELECT's rows read from its JSON, or an ASK. */
type Table = { type: 'select'; variables: string[]; bindings: Binding[] } | { type: 'ask'; boolean: boolean };

/** https://www.w3.org/TR/sparql11-results-json/ */
function jsonResults(table: Table): unknown {
  return table.type === 'ask'
    ? { head: {}, boolean: table.boolean }
    : { head: { vars: table.variables }, results: { bindings: table.bindings } };
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

/** https://www.w3.org/TR/rdf-sparql-XMLres/, ROWS results at a time. */
function* xmlResults(result: Table): Generator<string> {
  const head =
    '<?xml version="1.0" encoding="utf-8"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n';
  if (result.type === 'ask') {
    yield `${head}  <head/>\n  <boolean>${result.boolean}</boolean>\n</sparql>\n`;
    return;
  }
  const vars = result.variables.map((v) => `    <variable name="${xml(v)}"/>\n`).join('');
  yield `${head}  <head>\n${vars}  </head>\n  <results>\n`;
  for (let i = 0; i < result.bindings.length; i += ROWS) {
    yield result.bindings
      .slice(i, i + ROWS)
      .map((row) => {
        const cells = Object.entries(row)
          .map(([name, term]) => `      <binding name="${xml(name)}">${xmlTerm(term)}</binding>\n`)
          .join('');
        return `    <result>\n${cells}    </result>\n`;
      })
      .join('');
  }
  yield '  </results>\n</sparql>\n';
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

function* separated(
  result: Table,
  separator: string,
  cell: (term: ResultTerm | undefined) => string,
  header: (variable: string) => string,
  eol: string,
): Generator<string> {
  // ASK has no CSV/TSV form in the standard; Jena's (a one-cell table) is the one clients know.
  if (result.type === 'ask') {
    yield `${header('_askResult')}${eol}${result.boolean}${eol}`;
    return;
  }
  yield `${result.variables.map(header).join(separator)}${eol}`;
  for (let i = 0; i < result.bindings.length; i += ROWS) {
    let text = '';
    for (const row of result.bindings.slice(i, i + ROWS)) {
      text += `${result.variables.map((v) => cell(row[v])).join(separator)}${eol}`;
    }
    yield text;
  }
}
