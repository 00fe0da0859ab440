// Text → quads (n3 DataFactory terms) for every format. Any failure to read the input is
// the client's (an invalid DomainError naming the field the text came from), never a crash.
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser, type Quad } from 'n3';
import { DomainError, invalid } from '../process/errors.ts';
import { checkXml, LimitError, parseJson, unquoted } from '../limits.ts';
import { loaderRefusal } from './document-loader.ts';
import { formatInfo, type RdfFormat } from './formats.ts';
import { parseHext } from './hext.ts';
import { readJsonLd } from './jsonld-io.ts';
import { readRdfXml } from './rdfxml.ts';
import { count } from '../process/counters.ts';

export interface ParseOptions {
  /** Base IRI for relative IRIs (usually the document's URL). */
  baseIRI?: string;
  /** Request field the text came from, named in error details (e.g. `data_url`). */
  field?: string;
  /** Told each prefix the document declares (Turtle family `@prefix`, JSON-LD top-level `@context` terms). */
  onPrefix?: (prefix: string, namespace: string) => void;
}

const N3_FORMATS: Partial<Record<RdfFormat, string>> = {
  turtle: 'Turtle',
  longturtle: 'Turtle', // longturtle is Turtle laid out differently
  trig: 'application/trig',
  n3: 'text/n3',
  nt: 'N-Triples',
  nquads: 'N-Quads',
};

/** The Turtle family by name, for messages. */
const TURTLE_FAMILY: Partial<Record<RdfFormat, string>> = {
  turtle: 'Turtle',
  longturtle: 'Turtle',
  trig: 'TriG',
  n3: 'N3',
  nt: 'N-Triples',
  nquads: 'N-Quads',
};

let documents = 0;

/**
 * Blank nodes of one document: the same label gives the same node, and labels never clash
 * with another document's (n3's Parser does the same with its `b<n>_` prefixes).
 */
function blankNodeScope(): (label?: string) => RDF.BlankNode {
  const prefix = `d${++documents}_`;
  const nodes = new Map<string, RDF.BlankNode>();
  return (label) => {
    if (label === undefined) return DataFactory.blankNode();
    let node = nodes.get(label);
    if (!node) nodes.set(label, (node = DataFactory.blankNode(`${prefix}${nodes.size}`)));
    return node;
  };
}

function failure(options: ParseOptions, format: RdfFormat, error: unknown, text: string): DomainError {
  const field = options.field;
  const where = field ? `${field}: ` : '';
  if (error instanceof LimitError) return error; // already names the field
  const refusal = loaderRefusal(error);
  if (refusal) return new DomainError(refusal.kind, where + refusal.message, field);
  if (error instanceof DomainError) return error;
  const array = TURTLE_FAMILY[format] ? jsonArray(text) : undefined;
  if (array) {
    // `[` also opens a Turtle blank node, so a JSON array of values is read as TriG and
    // fails on its first value: say what it is instead of the Turtle parser's complaint.
    return invalid(
      `${where}found a JSON array${array}, not ${TURTLE_FAMILY[format]} or JSON-LD: ` +
        'a JSON-LD document is an object or an array of objects',
      field,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return invalid(`${where}could not parse the ${format} document: ${unquoted(message)}`, field);
}

function jsonLdQuads(document: unknown, options: ParseOptions): Promise<Quad[]> {
  const scope = blankNodeScope();
  if (options.onPrefix) contextPrefixes(document, options.onPrefix);
  return readJsonLd(document, (label) => scope(label), options.baseIRI);
}

/** `parse` of a JSON-LD document its caller has JSON-parsed already (for itself): not parsed again. */
export async function parseJsonLdDocument(document: unknown, options: ParseOptions = {}): Promise<Quad[]> {
  count('parse.rdf.json-ld');
  try {
    return await jsonLdQuads(document, options);
  } catch (error) {
    throw failure(options, 'json-ld', error, '');
  }
}

export async function parse(text: string, format: RdfFormat, options: ParseOptions = {}): Promise<Quad[]> {
  const { format: checked } = formatInfo(format, 'format');
  count(`parse.rdf.${checked}`);
  try {
    return await parseChecked(text, checked, options);
  } catch (error) {
    throw failure(options, checked, error, text);
  }
}

/** ` of numbers and strings` when `text` is a JSON array (`''` when empty), else undefined. */
function jsonArray(text: string): string | undefined {
  if (
    !text
      .trimStart()
      .replace(/^\uFEFF/, '')
      .startsWith('[')
  )
    return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  const kinds = [
    ...new Set(
      value.map((item) => (Array.isArray(item) ? 'arrays' : item === null ? 'nulls' : `${typeof item}s`)),
    ),
  ];
  return kinds.length === 0 ? '' : ` of ${kinds.join(' and ')}`;
}

async function parseChecked(text: string, format: RdfFormat, options: ParseOptions): Promise<Quad[]> {
  const baseIRI = options.baseIRI;
  switch (format) {
    case 'json-ld':
      return jsonLdQuads(parseJson(text, options.field ?? 'document'), options);
    case 'xml': {
      checkXml(text, options.field ?? 'document'); // before the parser expands entities or slows with depth
      const scope = blankNodeScope();
      return readRdfXml(text, { ...DataFactory, blankNode: scope } as RDF.DataFactory, baseIRI);
    }
    case 'hext': {
      const scope = blankNodeScope();
      return parseHext(text, (label) => scope(label));
    }
    default: {
      const parser = new Parser({
        format: N3_FORMATS[format],
        ...(baseIRI === undefined ? {} : { baseIRI }),
      } as ConstructorParameters<typeof Parser>[0]);
      const onPrefix = options.onPrefix;
      return parser.parse(
        text,
        null,
        onPrefix ? (prefix, namespace) => onPrefix(prefix, namespace.value) : undefined,
      );
    }
  }
}

/** The string-valued terms of a JSON-LD document's top-level `@context` objects. */
export function contextPrefixes(
  document: unknown,
  onPrefix: (prefix: string, namespace: string) => void,
): void {
  const context = (document as { '@context'?: unknown } | null)?.['@context'];
  for (const entry of Array.isArray(context) ? context : [context]) {
    if (entry === null || typeof entry !== 'object') continue;
    for (const [term, value] of Object.entries(entry as Record<string, unknown>)) {
      if (typeof value === 'string' && !term.startsWith('@')) onPrefix(term, value);
    }
  }
}
