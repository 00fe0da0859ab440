// IRIs the RML engine reads. Legacy RML (R2RML `rr:` + semweb `rml:` + `ql:` + old FnML) is
// rewritten onto new RML (`http://w3id.org/rml/`) when a mapping is loaded, so the reader
// only knows one vocabulary; the tables below drive that rewrite.

export const RML = 'http://w3id.org/rml/';
export const RR = 'http://www.w3.org/ns/r2rml#';
export const RML_LEGACY = 'http://semweb.mmlab.be/ns/rml#';
export const QL = 'http://semweb.mmlab.be/ns/ql#';
export const FNML = 'http://semweb.mmlab.be/ns/fnml#';
export const FNO = 'https://w3id.org/function/ontology#';
export const FNO_HTTP = 'http://w3id.org/function/ontology#';
export {
  RDF_NS as RDF,
  XSD,
  RDF_TYPE,
  RDF_FIRST,
  RDF_REST,
  RDF_NIL,
  XSD_STRING,
  XSD_INTEGER,
  XSD_DOUBLE,
  XSD_BOOLEAN,
  RDF_LANG_STRING,
} from '../rdf/vocab.ts';
export const CSVW = 'http://www.w3.org/ns/csvw#';
export const GREL = 'http://users.ugent.be/~bjdmeest/function/grel.ttl#';

/** Every namespace the IDLab functions were published under (the parser emits the first). */
export const IDLAB_NAMESPACES = [
  'https://w3id.org/imec/idlab/function#',
  'http://w3id.org/imec/idlab/function#',
  'http://example.com/idlab/function/',
];

/** Local names shared by R2RML and new RML: `rr:x` and legacy `rml:x` both become `rml:x`. */
const SHARED_TERMS = `TriplesMap LogicalSource SubjectMap PredicateMap ObjectMap GraphMap PredicateObjectMap
  RefObjectMap Join TermMap LanguageMap DatatypeMap subjectMap subject predicateMap predicate objectMap object
  graphMap graph predicateObjectMap constant template termType class datatype language languageMap
  datatypeMap parentTriplesMap joinCondition child parent IRI BlankNode Literal defaultGraph logicalSource
  source iterator reference referenceFormulation baseIRI UnsafeIRI URI`.split(/\s+/);

/** Legacy IRI → new RML IRI, applied to every term of a mapping graph. */
export const LEGACY_REWRITE: ReadonlyMap<string, string> = new Map([
  ...SHARED_TERMS.flatMap((name): [string, string][] => [
    [`${RR}${name}`, `${RML}${name}`],
    [`${RML_LEGACY}${name}`, `${RML}${name}`],
  ]),
  [`${RR}column`, `${RML}reference`],
  [`${RR}logicalTable`, `${RML}logicalSource`],
  [`${QL}JSONPath`, `${RML}JSONPath`],
  [`${QL}CSV`, `${RML}CSV`],
  [`${QL}XPath`, `${RML}XPath`],
  [`${RML_LEGACY}languageMap`, `${RML}languageMap`],
  [`${RML_LEGACY}datatypeMap`, `${RML}datatypeMap`],
]);
