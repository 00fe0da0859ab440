// RDF/XML. Reading uses rdfxml-streaming-parser. Writing is done here, in the flat layout of
// rdflib's (Python) "xml" serializer the original services used: one rdf:Description per
// subject, one property element per triple, rdf:nodeID for blank nodes. The installed
// writers were measured and rejected: rdflib.js nests blank nodes wrongly (a typed node
// element inside parseType="Resource" turns its type into a property), drops blank-node
// cycles and leaves "]]>" and CR unescaped; oxigraph canonicalises literals ("01" →
// "1") on load. RDF/XML cannot carry every graph: a predicate needs an XML local name and
// text must be XML 1.0 characters; those graphs are refused with a DomainError.
import type * as RDF from '@rdfjs/types';
import { BaseIRI, type Quad } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { invalid } from '../process/errors.ts';

const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const RDF_LANG_STRING = `${RDF_NS}langString`;

// Names that the RDF/XML grammar reserves, or (rdf:li) rewrites on reading.
const FORBIDDEN_PREDICATES = new Set(
  ['RDF', 'ID', 'about', 'bagID', 'parseType', 'resource', 'nodeID', 'datatype', 'li', 'Description']
    .concat(['aboutEach', 'aboutEachPrefix'])
    .map((name) => RDF_NS + name),
);

// XML 1.0 NCName characters (XML Namespaces 1.0, NameStartChar / NameChar without ':').
const NAME_START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
// (Combining marks lead, so no character in the class is read as combining with another.)
const NAME_CHAR = `\\u0300-\\u036F${NAME_START}\\-.0-9\\u00B7\\u203F-\\u2040`;
const NAME_TAIL = new RegExp(`[${NAME_CHAR}]*$`, 'u');
const NAME_START_CHAR = new RegExp(`[${NAME_START}]`, 'u');
const NCNAME = new RegExp(`^[${NAME_START}][${NAME_CHAR}]*$`, 'u');
// Characters XML 1.0 cannot contain at all, not even as character references.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function refuse(problem: string): never {
  throw invalid(`return_type: the graph cannot be written as RDF/XML: ${problem}`, 'return_type');
}

/** Splits a predicate IRI into namespace and the longest XML local name that ends it. */
export function splitForXml(iri: string): [namespace: string, local: string] | undefined {
  const tail = NAME_TAIL.exec(iri)?.[0] ?? '';
  const start = tail.search(NAME_START_CHAR);
  if (start < 0) return undefined;
  const local = tail.slice(start);
  const namespace = iri.slice(0, iri.length - local.length);
  return namespace === '' ? undefined : [namespace, local];
}

function checkChars(text: string, what: string): void {
  const bad = NOT_XML_CHAR.exec(text);
  if (bad) {
    const code = bad[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
    refuse(`${what} contains the character U+${code}, which XML 1.0 does not allow`);
  }
}

function escapeText(text: string): string {
  // `>` too, so "]]>" stays legal; CR as a reference, or the parser would normalise it to LF.
  return text.replace(/[&<>\r]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;',
  );
}

function escapeAttribute(text: string): string {
  const refs: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
  return text.replace(/[&<>"\t\n\r]/g, (c) => refs[c] ?? `&#${c.charCodeAt(0)};`);
}

export interface RdfXmlWriteOptions {
  prefixes?: Readonly<Record<string, string>>;
  /** Written as xml:base; IRIs are written relative to it where possible. */
  base?: string;
}

/** Writes the triples of every graph (RDF/XML has no named graphs). */
export function writeRdfXml(quads: Iterable<RDF.Quad>, options: RdfXmlWriteOptions = {}): string {
  const bySubject = new Map<string, { subject: RDF.Quad_Subject; triples: RDF.Quad[] }>();
  const qnames = new Map<string, string>(); // predicate IRI → qname
  const prefixOf = new Map<string, string>(); // namespace → prefix name
  const used = new Map<string, string>([['rdf', RDF_NS]]);
  for (const [name, iri] of Object.entries(options.prefixes ?? {})) {
    const reserved = name.toLowerCase().startsWith('xml') || name === 'rdf';
    if (NCNAME.test(name) && !reserved && !prefixOf.has(iri)) prefixOf.set(iri, name);
  }
  prefixOf.set(RDF_NS, 'rdf');
  const taken = new Set(prefixOf.values());
  let generated = 0;

  const qnameFor = (predicate: string): string => {
    let qname = qnames.get(predicate);
    if (qname !== undefined) return qname;
    if (FORBIDDEN_PREDICATES.has(predicate)) refuse(`<${predicate}> is RDF/XML syntax, not a property`);
    checkChars(predicate, `the IRI <${predicate}>`);
    const split = splitForXml(predicate);
    if (!split) refuse(`the predicate <${predicate}> does not end in an XML name`);
    const [namespace, local] = split;
    let prefix = prefixOf.get(namespace);
    if (prefix === undefined) {
      do prefix = `ns${++generated}`;
      while (taken.has(prefix));
      taken.add(prefix);
      prefixOf.set(namespace, prefix);
    }
    used.set(prefix, namespace);
    qname = `${prefix}:${local}`;
    qnames.set(predicate, qname);
    return qname;
  };

  // Blank node labels become b0, b1, …: valid NCNames whatever the input labels were.
  const nodeIds = new Map<string, string>();
  const nodeId = (label: string): string => {
    let id = nodeIds.get(label);
    if (id === undefined) nodeIds.set(label, (id = `b${nodeIds.size}`));
    return id;
  };
  const relative = options.base ? new BaseIRI(options.base) : undefined;
  // Only node IRIs are relativised; datatypes, namespaces and the base stay absolute.
  const iriAttribute = (iri: string, relativise = true): string => {
    checkChars(iri, `the IRI <${iri}>`);
    return escapeAttribute(relative && relativise ? relative.toRelative(iri) : iri);
  };

  for (const quad of quads) {
    const key = quad.subject.termType === 'BlankNode' ? `_:${quad.subject.value}` : quad.subject.value;
    let entry = bySubject.get(key);
    if (!entry) bySubject.set(key, (entry = { subject: quad.subject, triples: [] }));
    entry.triples.push(quad);
    qnameFor(quad.predicate.value);
  }

  const body: string[] = [];
  for (const { subject, triples } of bySubject.values()) {
    const about =
      subject.termType === 'BlankNode'
        ? `rdf:nodeID="${nodeId(subject.value)}"`
        : `rdf:about="${iriAttribute(subject.value)}"`;
    body.push(`  <rdf:Description ${about}>\n`);
    for (const { predicate, object } of triples) {
      const qname = qnameFor(predicate.value);
      if (object.termType === 'Literal') {
        checkChars(object.value, `the literal ${JSON.stringify(object.value.slice(0, 40))}`);
        let attributes = '';
        if (object.language) attributes = ` xml:lang="${escapeAttribute(object.language)}"`;
        else if (object.datatype.value !== XSD_STRING && object.datatype.value !== RDF_LANG_STRING) {
          attributes = ` rdf:datatype="${iriAttribute(object.datatype.value, false)}"`;
        }
        body.push(`    <${qname}${attributes}>${escapeText(object.value)}</${qname}>\n`);
      } else if (object.termType === 'BlankNode') {
        body.push(`    <${qname} rdf:nodeID="${nodeId(object.value)}"/>\n`);
      } else {
        body.push(`    <${qname} rdf:resource="${iriAttribute(object.value)}"/>\n`);
      }
    }
    body.push('  </rdf:Description>\n');
  }

  const head = ['<?xml version="1.0" encoding="utf-8"?>\n<rdf:RDF\n'];
  if (options.base) head.push(`   xml:base="${iriAttribute(options.base, false)}"\n`);
  for (const [prefix, namespace] of [...used].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    head.push(`   xmlns:${prefix}="${escapeAttribute(namespace)}"\n`);
  }
  head.push('>\n');
  return head.join('') + body.join('') + '</rdf:RDF>\n';
}

/** Reads RDF/XML; `dataFactory` decides blank node labels (see parse.ts). */
export function readRdfXml(text: string, dataFactory: RDF.DataFactory, baseIRI?: string): Promise<Quad[]> {
  return new Promise((resolve, reject) => {
    const parser = new RdfXmlParser({ dataFactory, ...(baseIRI === undefined ? {} : { baseIRI }) });
    const quads: Quad[] = [];
    parser.on('data', (quad: Quad) => quads.push(quad));
    parser.on('error', reject);
    parser.on('end', () => resolve(quads));
    parser.end(text);
  });
}
