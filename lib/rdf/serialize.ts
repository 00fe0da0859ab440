// Quads → text in any return_type (plus N-Quads). Turtle, TriG, N-Triples, N-Quads and N3
// come from n3's Writer, JSON-LD from jsonld; RDF/XML, hext and longturtle are written here
// (see their modules for why).
import type * as RDF from '@rdfjs/types';
import { Writer } from 'n3';
import { ClientError } from '../errors.ts';
import { formatInfo, type RdfFormat } from './formats.ts';
import { writeHext } from './hext.ts';
import { writeJsonLd, type JsonLdContext } from './jsonld-io.ts';
import { writeLongTurtle } from './longturtle.ts';
import { writeRdfXml } from './rdfxml.ts';

export interface SerializeOptions {
  /** Prefix name → namespace IRI. Only the prefixes the data uses are written. */
  prefixes?: Readonly<Record<string, string>>;
  /** Base IRI: written as @base / BASE / xml:base, IRIs relative to it where the format allows. */
  base?: string;
  /** JSON-LD only: the context to compact with instead of `prefixes` (bundled URLs allowed). */
  context?: JsonLdContext;
}

/** Always available, as in rdflib; a caller's prefix of the same name or IRI wins. */
export const DEFAULT_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  owl: 'http://www.w3.org/2002/07/owl#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
});

// Turtle's PN_PREFIX (or empty); anything else would make the output unreadable.
const PREFIX_NAME = /^(?:[A-Za-z\u00C0-\uFFFD](?:[\w.\-\u00B7\u00C0-\uFFFD]*[\w\-\u00B7\u00C0-\uFFFD])?)?$/;

function withDefaults(prefixes: Readonly<Record<string, string>> = {}): Record<string, string> {
  const merged: Record<string, string> = {};
  const given = Object.entries(prefixes).filter(
    ([name, iri]) => PREFIX_NAME.test(name) && typeof iri === 'string',
  );
  const givenIris = new Set(given.map(([, iri]) => iri));
  for (const [name, iri] of Object.entries(DEFAULT_PREFIXES)) {
    if (!givenIris.has(iri)) merged[name] = iri;
  }
  for (const [name, iri] of given) merged[name] = iri;
  return merged;
}

/** The prefixes whose namespace starts some IRI of the data (n3 writes every prefix given). */
function usedPrefixes(quads: readonly RDF.Quad[], prefixes: Record<string, string>): Record<string, string> {
  const iris = new Set<string>();
  for (const quad of quads) {
    for (const term of [quad.subject, quad.predicate, quad.object, quad.graph]) {
      if (term.termType === 'NamedNode') iris.add(term.value);
      else if (term.termType === 'Literal') iris.add(term.datatype.value);
    }
  }
  const entries = Object.entries(prefixes);
  const used = new Set<string>();
  for (const iri of iris) {
    for (const [name, namespace] of entries) if (iri.startsWith(namespace)) used.add(name);
  }
  return Object.fromEntries(entries.filter(([name]) => used.has(name)));
}

const N3_FORMATS: Partial<Record<RdfFormat, string>> = {
  turtle: 'Turtle',
  trig: 'application/trig',
  n3: 'text/n3',
  nt: 'N-Triples',
  nquads: 'N-Quads',
};

function writeWithN3(
  quads: readonly RDF.Quad[],
  format: RdfFormat,
  options: SerializeOptions,
): Promise<string> {
  const lineBased = format === 'nt' || format === 'nquads';
  const writer = new Writer({
    format: N3_FORMATS[format],
    ...(lineBased ? {} : { prefixes: usedPrefixes(quads, withDefaults(options.prefixes)) }),
    ...(lineBased || !options.base ? {} : { baseIRI: options.base, writeBase: true }),
  } as ConstructorParameters<typeof Writer>[0]);
  const keepGraphs = format === 'trig' || format === 'nquads';
  for (const { subject, predicate, object, graph } of quads) {
    // Triple formats get the triples of every graph (n3 would write graph blocks).
    if (keepGraphs) writer.addQuad(subject, predicate, object, graph);
    else writer.addQuad(subject, predicate, object);
  }
  return new Promise((resolve, reject) =>
    writer.end((error, result: string) => (error ? reject(error) : resolve(result))),
  );
}

/**
 * Writes `quads` as `format`. Formats without named graphs (turtle, longturtle, n3, nt,
 * xml) write the triples of every graph. An unknown format is a 422 ClientError naming
 * `return_type`; so is a graph RDF/XML cannot express.
 */
export async function serialize(
  quads: Iterable<RDF.Quad>,
  format: RdfFormat,
  options: SerializeOptions = {},
): Promise<string> {
  const { format: checked } = formatInfo(format);
  const all = Array.isArray(quads) ? (quads as readonly RDF.Quad[]) : [...quads];
  if (checked === 'json-ld' || checked === 'xml' || checked === 'hext') refuseRdf12(all, checked);
  switch (checked) {
    case 'json-ld':
      return writeJsonLd(all, {
        prefixes: usedPrefixes(all, withDefaults(options.prefixes)),
        ...(options.base === undefined ? {} : { base: options.base }),
        ...(options.context === undefined ? {} : { context: options.context }),
      });
    case 'xml':
      return writeRdfXml(all, { prefixes: withDefaults(options.prefixes), ...baseOption(options) });
    case 'hext':
      return writeHext(all);
    case 'longturtle':
      return writeLongTurtle(all, { prefixes: withDefaults(options.prefixes), ...baseOption(options) });
    default:
      return writeWithN3(all, checked, options);
  }
}

/**
 * n3 reads RDF 1.2 (triple terms, directional language strings) from Turtle-family input.
 * JSON-LD, RDF/XML and hext as written here cannot carry them, and would lose or garble
 * them silently, so they are refused.
 */
function refuseRdf12(quads: readonly RDF.Quad[], format: RdfFormat): void {
  for (const { subject, object } of quads) {
    const tripleTerm = subject.termType === 'Quad' || object.termType === 'Quad';
    const direction = object.termType === 'Literal' && (object as { direction?: string }).direction;
    if (tripleTerm || direction) {
      const what = tripleTerm ? 'triple terms' : 'directional language strings';
      throw new ClientError(
        422,
        `return_type: ${format} cannot express RDF 1.2 ${what}; use turtle, longturtle, trig, n3 or nt`,
        'return_type',
      );
    }
  }
}

function baseOption(options: SerializeOptions): { base?: string } {
  return options.base === undefined ? {} : { base: options.base };
}
