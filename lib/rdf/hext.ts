// Hextuples (NDJSON, one `[subject, predicate, value, datatype, language, graph]` array per
// line), written the way rdflib's hext serializer does: IRI objects have datatype
// "globalId", blank nodes are "_:label" with "localId", plain literals carry xsd:string,
// language strings rdf:langString, the default graph is "". No npm package writes it.
import type * as RDF from '@rdfjs/types';
import { DataFactory, type Quad } from 'n3';

const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
// Older hextuples writers spelt the object kinds as RDF IRIs.
const NAMED_NODE_KINDS = new Set(['globalId', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#namedNode']);
const BLANK_NODE_KINDS = new Set(['localId', 'http://www.w3.org/1999/02/22-rdf-syntax-ns#blankNode']);

function resource(term: RDF.Term): string {
  return term.termType === 'BlankNode' ? `_:${term.value}` : term.value;
}

// Python's json.dumps: ", " between items and every non-ASCII character as \uXXXX, so our
// lines are byte-identical to rdflib's (and pure ASCII).
function jsonString(value: string): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function hextLine(quad: RDF.Quad): string {
  const { object, graph } = quad;
  let value: string;
  let datatype: string;
  let language = '';
  if (object.termType === 'Literal') {
    value = object.value;
    language = object.language;
    datatype = object.datatype.value || (language ? RDF_LANG_STRING : XSD_STRING);
  } else {
    value = resource(object);
    datatype = object.termType === 'BlankNode' ? 'localId' : 'globalId';
  }
  const fields = [
    resource(quad.subject),
    quad.predicate.value,
    value,
    datatype,
    language,
    graph.termType === 'DefaultGraph' ? '' : resource(graph),
  ];
  return `[${fields.map(jsonString).join(', ')}]\n`;
}

/** A hext syntax error: 1-based line number and what is wrong. */
export class HextSyntaxError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'HextSyntaxError';
    this.line = line;
  }
}

/**
 * Parses hextuples. `blankNode` maps a label from the document to a term, so the caller
 * decides how labels are kept apart from other documents'.
 */
export function parseHext(text: string, blankNode: (label: string) => RDF.BlankNode): Quad[] {
  const quads: Quad[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    let fields: unknown;
    try {
      fields = JSON.parse(line);
    } catch (error) {
      throw new HextSyntaxError(i + 1, `not JSON (${(error as Error).message})`);
    }
    if (!Array.isArray(fields) || fields.length !== 6 || !fields.every((f) => typeof f === 'string')) {
      throw new HextSyntaxError(i + 1, 'expected an array of six strings');
    }
    const [subject, predicate, value, datatype, language, graph] = fields as string[];
    quads.push(toQuad(i + 1, subject!, predicate!, value!, datatype!, language!, graph!, blankNode));
  }
  return quads;
}

function toQuad(
  line: number,
  subject: string,
  predicate: string,
  value: string,
  datatype: string,
  language: string,
  graph: string,
  blankNode: (label: string) => RDF.BlankNode,
): Quad {
  const resourceTerm = (id: string, what: string): RDF.NamedNode | RDF.BlankNode => {
    if (id === '' || id === '_:') throw new HextSyntaxError(line, `empty ${what}`);
    return id.startsWith('_:') ? blankNode(id.slice(2)) : DataFactory.namedNode(id);
  };
  if (predicate === '') throw new HextSyntaxError(line, 'empty predicate');
  let object: RDF.Quad_Object;
  if (NAMED_NODE_KINDS.has(datatype)) object = DataFactory.namedNode(value);
  else if (BLANK_NODE_KINDS.has(datatype)) object = blankNode(value.replace(/^_:/, ''));
  else if (language !== '') object = DataFactory.literal(value, language);
  else object = DataFactory.literal(value, DataFactory.namedNode(datatype || XSD_STRING));
  return DataFactory.quad(
    resourceTerm(subject, 'subject'),
    DataFactory.namedNode(predicate),
    object,
    graph === '' ? DataFactory.defaultGraph() : resourceTerm(graph, 'graph'),
  ) as Quad;
}
