// JSON-LD in and out with the jsonld library (fromRDF + compact, toRDF), always through the
// bundled-contexts document loader so no context is ever fetched.
import type * as RDF from '@rdfjs/types';
import jsonld from 'jsonld';
import type { ContextDefinition, JsonLdDocument } from 'jsonld';
import { DataFactory, type Quad } from 'n3';
import { documentLoader } from './document-loader.ts';

/** What to compact with: a context object, a bundled context URL, or a list of them. */
export type JsonLdContext = ContextDefinition | string | (ContextDefinition | string)[];

export interface JsonLdWriteOptions {
  /** Prefix → namespace IRI, used as the compaction context when `context` is not given. */
  prefixes?: Readonly<Record<string, string>>;
  /** Written as `@base`, so IRIs under it are compacted to relative references. */
  base?: string;
  context?: JsonLdContext;
}

// Terms that cannot be prefixes in a JSON-LD context: empty, keywords, or containing ':'.
function usablePrefix(name: string): boolean {
  return name !== '' && !name.startsWith('@') && !name.includes(':');
}

function compactionContext(options: JsonLdWriteOptions): JsonLdContext {
  if (options.context !== undefined) {
    if (options.base === undefined) return options.context;
    const list = Array.isArray(options.context) ? options.context : [options.context];
    return [...list, { '@base': options.base }];
  }
  const context: Record<string, string> = {};
  if (options.base !== undefined) context['@base'] = options.base;
  for (const [name, iri] of Object.entries(options.prefixes ?? {})) {
    if (usablePrefix(name)) context[name] = iri;
  }
  return context;
}

export async function writeJsonLd(
  quads: Iterable<RDF.Quad>,
  options: JsonLdWriteOptions = {},
): Promise<string> {
  // Lexical forms are kept (no native numbers/booleans) so the output reads back to the same
  // literals; rdf:type becomes @type.
  // jsonld names a blank-node graph by its bare label (not `_:label` as everywhere else), so
  // such graph names are handed over already prefixed.
  const dataset = [...quads].map((q) =>
    q.graph.termType === 'BlankNode'
      ? {
          subject: q.subject,
          predicate: q.predicate,
          object: q.object,
          graph: { termType: 'BlankNode', value: `_:${q.graph.value}` },
        }
      : q,
  );
  const expanded = await jsonld.fromRDF(dataset, { useNativeTypes: false, useRdfType: false });
  const context = compactionContext(options);
  const compacted = await jsonld.compact(expanded, context as ContextDefinition, {
    documentLoader,
    ...(options.base === undefined ? {} : { base: options.base }),
  });
  return `${JSON.stringify(compacted, null, 2)}\n`;
}

// The shape of jsonld's toRDF output (its own RDF/JS-like objects).
interface JsonLdTerm {
  termType: string;
  value: string;
  datatype?: { value: string };
  language?: string;
}
interface JsonLdQuad {
  subject: JsonLdTerm;
  predicate: JsonLdTerm;
  object: JsonLdTerm;
  graph: JsonLdTerm;
}

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const XSD_DOUBLE = 'http://www.w3.org/2001/XMLSchema#double';
const HELD_DOUBLE = 'urn:x-labld:lexical-double';

/**
 * jsonld's toRDF rewrites every xsd:double string to canonical form ("180" → "1.8E2"),
 * unlike the JSON-LD spec, which does so for native JSON numbers only. Doubles given as
 * strings are parked under a stand-in datatype and restored after conversion.
 */
function protectDoubles(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) protectDoubles(item);
  } else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if ('@value' in object) {
      // A value object; its @value may be a JSON literal, which is data, not JSON-LD.
      if (object['@type'] === XSD_DOUBLE && typeof object['@value'] === 'string')
        object['@type'] = HELD_DOUBLE;
    } else for (const key of Object.keys(object)) protectDoubles(object[key]);
  }
}

/**
 * Reads a JSON-LD document (already JSON-parsed) into quads. `blankNode` maps jsonld's
 * document-local labels (`_:b0`) to terms, so the caller keeps documents apart.
 */
export async function readJsonLd(
  document: unknown,
  blankNode: (label: string) => RDF.BlankNode,
  baseIRI?: string,
): Promise<Quad[]> {
  const expanded = await jsonld.expand(document as JsonLdDocument, {
    documentLoader,
    ...(baseIRI === undefined ? {} : { base: baseIRI }),
  });
  protectDoubles(expanded);
  const dataset = (await jsonld.toRDF(expanded, { skipExpansion: true } as object)) as JsonLdQuad[];
  const term = (t: JsonLdTerm): RDF.Term => {
    switch (t.termType) {
      case 'NamedNode':
        return DataFactory.namedNode(t.value);
      case 'BlankNode':
        return blankNode(t.value.replace(/^_:/, ''));
      case 'DefaultGraph':
        return DataFactory.defaultGraph();
      default: {
        if (t.language) return DataFactory.literal(t.value, t.language);
        const datatype = t.datatype?.value ?? XSD_STRING;
        return DataFactory.literal(
          t.value,
          DataFactory.namedNode(datatype === HELD_DOUBLE ? XSD_DOUBLE : datatype),
        );
      }
    }
  };
  return dataset.map(
    (q) =>
      DataFactory.quad(
        term(q.subject) as RDF.Quad_Subject,
        term(q.predicate) as RDF.Quad_Predicate,
        term(q.object) as RDF.Quad_Object,
        term(q.graph) as RDF.Quad_Graph,
      ) as Quad,
  );
}
