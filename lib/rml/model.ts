// The normalized mapping model: what a mapping means, independent of the vocabulary it was
// written in (legacy RML, new RML, old or new FnML). `mapping.ts` builds it from Turtle; the
// executor compiles it; the converter's checks read it (rule names, conditions, sources).
import type { CsvDialect } from './csv.ts';

export type TermType = 'iri' | 'uri' | 'unsafe-iri' | 'blank' | 'literal';

/** A constant RDF term, as written in the mapping. */
export interface ConstantTerm {
  termType: 'iri' | 'blank' | 'literal';
  value: string;
  datatype?: string;
  language?: string;
}

export interface FunctionInput {
  /** Parameter IRI (new FnML `rml:parameter`, old FnML predicate). */
  parameter: string;
  value: ExpressionMap;
}

export interface FunctionExecution {
  function: string;
  inputs: FunctionInput[];
  /** Output IRI asked for (`rml:return`), if any. */
  output?: string;
  /** Old FnML (`fnml:functionValue`): outputs become plain literals, as RMLMapper writes them. */
  old?: boolean;
}

export type Expression =
  | { kind: 'constant'; term: ConstantTerm }
  | { kind: 'reference'; reference: string }
  | { kind: 'template'; template: string }
  | { kind: 'function'; execution: FunctionExecution }
  /** A blank node subject without expression: a fresh node per iteration. */
  | { kind: 'none' };

/** An expression map: term maps, but also function inputs, join sides, language maps. */
export interface ExpressionMap {
  /** The mapping node, for messages. */
  node: string;
  expression: Expression;
  /** A condition (new FnML `rml:condition`): when not true, the map yields nothing. */
  condition?: FunctionExecution;
}

/** RML-CC: the term map's term is a collection or container of the members' terms. */
export interface GatherMap {
  members: TermMap[];
  as: 'List' | 'Bag' | 'Seq' | 'Alt';
  /** rml:cartesianProduct: one collection per combination of member values (else appended). */
  cartesian: boolean;
  /** rml:allowEmptyListAndContainer: an empty gather still yields rdf:nil or an empty container. */
  allowEmpty: boolean;
}

export interface TermMap extends ExpressionMap {
  termType: TermType;
  /** Whether the term type was written down (function outputs differ by position). */
  explicitTermType: boolean;
  datatypeMap?: ExpressionMap;
  languageMap?: ExpressionMap;
  /** RML-CC gather map; the expression, if any, names the collection. */
  gather?: GatherMap;
}

export interface SubjectMap extends TermMap {
  classes: string[];
  graphMaps: TermMap[];
}

export interface JoinCondition {
  child: ExpressionMap;
  parent: ExpressionMap;
  /** The child side is a list (JSON array) any of whose items may match. */
  childList?: boolean;
}

export interface RefObjectMap {
  node: string;
  parentTriplesMap: string;
  joinConditions: JoinCondition[];
}

export interface PredicateObjectMap {
  node: string;
  predicateMaps: TermMap[];
  objectMaps: TermMap[];
  refObjectMaps: RefObjectMap[];
  graphMaps: TermMap[];
}

export type SourceAccess =
  | { kind: 'path'; path: string; root: 'mapping' | 'cwd' }
  /** A legacy string source: a path relative to the mapping, or a URL. */
  | { kind: 'location'; location: string };

export type ReferenceFormulation = 'jsonpath' | 'csv' | 'xpath' | 'view' | 'unknown';

/** A field of a logical view (RML-LV); `name` is the full dotted name (`item.type`). */
export interface ViewField {
  name: string;
  /** Expression field: its value(s) per record. */
  expression?: Expression;
  /** Iterable field: its items (JSONPath `iterator`, or the rows of a CSV value) feed the nested fields. */
  iterable?: { formulation: 'jsonpath' | 'csv'; iterator?: string };
  fields: ViewField[];
}

export interface ViewJoin {
  node: string;
  /** rml:innerJoin (else rml:leftJoin: child rows without a match are kept). */
  inner: boolean;
  parent: LogicalSource;
  conditions: { child: Expression; parent: Expression }[];
  /** Fields read from the matching parent rows. */
  fields: ViewField[];
}

/** A logical view (RML-LV) over another logical source or view. */
export interface LogicalView {
  on: LogicalSource;
  fields: ViewField[];
  joins: ViewJoin[];
}

export interface LogicalSource {
  node: string;
  access: SourceAccess;
  formulation: ReferenceFormulation;
  /** The formulation IRI as written (for messages). */
  formulationIri: string;
  iterator?: string;
  dialect: CsvDialect;
  /** Values that count as missing (rml:null, csvw:null). */
  nullValues: string[];
  encoding: string;
  /** Identity: triples maps whose sources have the same key share one pass over the data. */
  key: string;
  /** Legacy mappings: a CSV row with more or fewer cells than the header is read as it is (RMLMapper). */
  lenient: boolean;
  /** RML-LV: the source is a logical view (formulation `view`). */
  view?: LogicalView;
  /** XPath namespace prefixes (a described XPath reference formulation's rml:namespace). */
  namespaces?: Record<string, string>;
  /** rml:compression of the source (`gzip` is read; others are refused with a clear error). */
  compression?: string;
}

export interface TriplesMap {
  node: string;
  /** rdfs:label (the YARRRML mapping name) or the local name of the node. */
  name: string;
  logicalSource: LogicalSource;
  subjectMap: SubjectMap;
  predicateObjectMaps: PredicateObjectMap[];
  baseIri?: string;
  /**
   * Written in the legacy vocabulary (rr:, semweb rml:, ql:): RMLMapper's profile — relative
   * IRIs against the document's `@base`, JSON values as plain literals, data errors skip the
   * term instead of ending the run (see the RML README's profiles).
   */
  legacy: boolean;
}

export interface Mapping {
  triplesMaps: TriplesMap[];
  /** Whether any legacy (R2RML / semweb RML) term was used. */
  legacy: boolean;
  /** The Turtle document's `@base`, resolved (undefined for YARRRML and documents without one). */
  documentBase?: string;
}
