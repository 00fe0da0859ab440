// The query page's sentence builder, in the spirit of Sparklis: a sentence in words ("Every
// QuantityValue whose unit is MilliM and whose value is greater than 1") is a class and a few
// steps, each a property of the thing sought and, optionally, a value it must have or a number
// it must exceed. This module turns a sentence into words and into the SPARQL that answers it,
// and writes the queries that tell what can be added next (classes, properties, values, all
// with counts), so the builder needs nothing but the dataset's endpoint and works on any data.
//
// The SPARQL is generated from a sparqljs syntax tree, never by pasting text: the generator
// escapes literals, and every IRI is checked to be writable between `<` and `>` first.
import type * as RDF from '@rdfjs/types';
import { DataFactory, type Literal, type NamedNode } from 'n3';
import sparqljs from 'sparqljs';
import type { Expression, Pattern, SelectQuery, Triple, VariableExpression, VariableTerm } from 'sparqljs';
import { invalid } from '../process/errors.ts';
import { isStrictIri } from './names.ts';

const { namedNode, literal, variable } = DataFactory;

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** Steps a sentence may have: enough for any question in words, bounded for the page's links. */
export const MAX_STEPS = 8;
/** Longest number a comparison takes (a decimal or a double, as typed). */
export const MAX_NUMBER_CHARS = 40;
/** Longest literal value a step may require (a value picked from the dataset's own). */
export const MAX_LITERAL_CHARS = 2000;

export const COMPARISONS = ['gt', 'ge', 'lt', 'le'] as const;
export type Comparison = (typeof COMPARISONS)[number];

const OPERATORS: Record<Comparison, string> = { gt: '>', ge: '>=', lt: '<', le: '<=' };
export const COMPARISON_WORDS: Record<Comparison, string> = {
  gt: 'greater than',
  ge: 'at least',
  lt: 'less than',
  le: 'at most',
};

/** What a step requires of its property's value: one value, or a number compared. */
export type Filter = { kind: 'is'; value: NamedNode | Literal } | { kind: Comparison; number: string };

export interface Step {
  /** The property's IRI. */
  property: string;
  /**
   * The property read backwards: the things sought are its values, and the step's value is the
   * thing that has them ("that is the hasBody of ProbenbreiteB03"). Its value is an IRI only.
   */
  inverse?: true;
  /** Absent: any value (the step only asks that there is one, and shows it). */
  filter?: Filter;
}

export interface Sentence {
  /** The class of the things sought (its IRI); absent: anything. */
  class?: string;
  steps: Step[];
}

/** A decimal or a double as SPARQL and XSD write them. */
const NUMBER = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;
const LANGUAGE = /^[a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*$/;

/** The variable of the things sought, and of each step's value (`?v1`, `?v2`, …). */
export const SUBJECT = 'x';
export const stepVariable = (index: number): string => `v${index + 1}`;

function iri(value: unknown, field: string): string {
  if (!isStrictIri(value)) throw invalid(`${field}: must be an absolute IRI`, field);
  return value;
}

export function checkNumber(text: unknown, field: string): string {
  if (typeof text !== 'string' || text.length > MAX_NUMBER_CHARS || !NUMBER.test(text)) {
    throw invalid(`${field}: must be a number such as 2, -0.5 or 1.5e3`, field);
  }
  return text;
}

/** A value a step may require: an IRI, or a literal with a writable datatype or a language tag. */
export function checkValue(term: RDF.Term, field: string): NamedNode | Literal {
  if (term.termType === 'NamedNode') return namedNode(iri(term.value, field));
  if (term.termType !== 'Literal') throw invalid(`${field}: must be an IRI or a literal`, field);
  if (term.value.length > MAX_LITERAL_CHARS) {
    throw invalid(`${field}: longer than ${MAX_LITERAL_CHARS} characters`, field);
  }
  const lexical = term.value.toWellFormed();
  if (term.language) {
    if (!LANGUAGE.test(term.language)) throw invalid(`${field}: not a language tag`, field);
    return literal(lexical, term.language);
  }
  return literal(lexical, namedNode(iri(term.datatype.value, field)));
}

/** The sentence, checked: every IRI writable, every number a number, at most MAX_STEPS steps. */
export function checkSentence(sentence: Sentence): Sentence {
  if (sentence.steps.length > MAX_STEPS) throw invalid(`steps: at most ${MAX_STEPS}`, 'steps');
  const checked: Sentence = {
    steps: sentence.steps.map((step, i) => {
      const n = i + 1;
      const out: Step = { property: iri(step.property, `p${n}`) };
      if (step.inverse === true) {
        out.inverse = true;
        // What points at a thing is an IRI or a blank node: never a literal, never a number.
        if (step.filter && (step.filter.kind !== 'is' || step.filter.value.termType !== 'NamedNode')) {
          throw invalid(`v${n}: a backward step's value is an IRI`, `v${n}`);
        }
      }
      if (step.filter?.kind === 'is')
        out.filter = { kind: 'is', value: checkValue(step.filter.value, `v${n}`) };
      else if (step.filter)
        out.filter = { kind: step.filter.kind, number: checkNumber(step.filter.number, `v${n}`) };
      return out;
    }),
  };
  if (sentence.class !== undefined) checked.class = iri(sentence.class, 'class');
  return checked;
}

// ---- words -------------------------------------------------------------------------------

/** The last part of an IRI, as a person would name it: `…/unit/MilliM` → MilliM, `…#Specimen` → Specimen. */
export function localName(value: string): string {
  const cut = Math.max(value.lastIndexOf('#'), value.lastIndexOf('/'), value.lastIndexOf(':'));
  const name = cut >= 0 && cut < value.length - 1 ? value.slice(cut + 1) : value;
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** A value in words: an IRI by its local name, a literal as written (quoted when it is text). */
export function termWords(term: RDF.Term): string {
  if (term.termType === 'NamedNode') return localName(term.value);
  if (term.termType === 'BlankNode') return 'a blank node';
  if (term.termType !== 'Literal') return term.value;
  if (term.language) return `“${term.value}” (${term.language})`;
  const datatype = term.datatype.value;
  const plain = datatype.startsWith(XSD) && !datatype.endsWith('#string') && !datatype.endsWith('#anyURI');
  return plain ? term.value : `“${term.value}”`;
}

export function stepWords(step: Step): string {
  const property = localName(step.property);
  if (step.inverse) {
    const of = step.filter?.kind === 'is' ? termWords(step.filter.value) : 'something';
    return `that is the ${property} of ${of}`;
  }
  if (!step.filter) return `with a ${property}`;
  if (step.filter.kind === 'is') return `whose ${property} is ${termWords(step.filter.value)}`;
  return `whose ${property} is ${COMPARISON_WORDS[step.filter.kind]} ${step.filter.number}`;
}

/** The sentence in words: "Every QuantityValue whose unit is MilliM and whose value is greater than 1". */
export function words(sentence: Sentence): string {
  const head = sentence.class === undefined ? 'Everything' : `Every ${localName(sentence.class)}`;
  if (sentence.steps.length === 0) return head;
  return `${head} ${sentence.steps.map(stepWords).join(' and ')}`;
}

// ---- SPARQL ------------------------------------------------------------------------------

// No indentation: sparqljs indents a group with /^/gm, and in a JS regex that ^ matches after
// U+2028 and U+2029 too, so an IRI or a literal holding one got spaces written into it (a
// broken query, or a literal that no longer matches). The queries keep their line breaks.
const generator = new sparqljs.Generator({ indent: '' });
const v = (name: string): VariableTerm => variable(name) as VariableTerm;

/** The graph pattern of the things the sentence describes (`?x`), each step's value in `?vN`. */
function patterns(sentence: Sentence): Pattern[] {
  const s = checkSentence(sentence);
  const x = v(SUBJECT);
  const triples: Triple[] = [];
  if (s.class !== undefined)
    triples.push({ subject: x, predicate: namedNode(RDF_TYPE), object: namedNode(s.class) });
  const values: Pattern[] = [];
  const filters: Pattern[] = [];
  s.steps.forEach((step, i) => {
    const value = v(stepVariable(i));
    const predicate = namedNode(step.property);
    triples.push(
      step.inverse ? { subject: value, predicate, object: x } : { subject: x, predicate, object: value },
    );
    const filter = step.filter;
    if (filter?.kind === 'is') {
      // VALUES keeps the value as a column of the results and lets the store start from it.
      values.push({ type: 'values', values: [{ [`?${value.value}`]: filter.value }] } as Pattern);
    } else if (filter) {
      const datatype = /[eE]/.test(filter.number) ? 'double' : 'decimal';
      filters.push({
        type: 'filter',
        expression: {
          type: 'operation',
          operator: OPERATORS[filter.kind],
          args: [value, literal(filter.number, namedNode(`${XSD}${datatype}`))],
        } as Expression,
      });
    }
  });
  return [...values, { type: 'bgp', triples }, ...filters];
}

function count(of: string, as: string): VariableExpression {
  return {
    expression: { type: 'aggregate', aggregation: 'count', distinct: true, expression: v(of) } as Expression,
    variable: v(as),
  };
}

/**
 * Prefixes a reader knows, for the SPARQL shown and opened in YASGUI: the generator writes
 * `qudt:unit` for an IRI only when the rest is a plain name, and declares only the ones used.
 */
const PREFIXES: Record<string, string> = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  xsd: XSD,
  skos: 'http://www.w3.org/2004/02/skos/core#',
  dcterms: 'http://purl.org/dc/terms/',
  prov: 'http://www.w3.org/ns/prov#',
  oa: 'http://www.w3.org/ns/oa#',
  csvw: 'http://www.w3.org/ns/csvw#',
  qudt: 'http://qudt.org/schema/qudt/',
  unit: 'http://qudt.org/vocab/unit/',
  obo: 'http://purl.obolibrary.org/obo/',
  iof: 'https://spec.industrialontologies.org/ontology/core/Core/',
};

function select(query: Omit<SelectQuery, 'type' | 'queryType' | 'prefixes'>): string {
  return generator.stringify({
    type: 'query',
    queryType: 'SELECT',
    prefixes: PREFIXES,
    ...query,
  } as SelectQuery);
}

/** The rows the sentence asks for: the things and each step's value, at most `limit`. */
export function resultsQuery(sentence: Sentence, limit: number): string {
  const columns = [SUBJECT, ...sentence.steps.map((_, i) => stepVariable(i))];
  return select({
    distinct: true,
    variables: columns.map(v),
    where: patterns(sentence),
    order: columns.map((c) => ({ expression: v(c) })),
    limit,
  });
}

/** How many rows the results query would give without its limit (`?n`). */
export function countQuery(sentence: Sentence): string {
  const columns = [SUBJECT, ...sentence.steps.map((_, i) => stepVariable(i))];
  const rows = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    distinct: true,
    variables: columns.map(v),
    where: patterns(sentence),
  } as SelectQuery;
  const all = {
    type: 'aggregate',
    aggregation: 'count',
    distinct: false,
    expression: new sparqljs.Wildcard(),
  };
  return select({
    variables: [{ expression: all as Expression, variable: v('n') }],
    where: [{ type: 'group', patterns: [rows] }],
  });
}

/** Where a sentence starts: the dataset's classes (`?class`) with their members (`?n`), most first. */
export function classesQuery(limit: number): string {
  return select({
    variables: [v('class'), count(SUBJECT, 'n')],
    where: [
      { type: 'bgp', triples: [{ subject: v(SUBJECT), predicate: namedNode(RDF_TYPE), object: v('class') }] },
    ],
    group: [{ expression: v('class') }],
    order: [{ expression: v('n'), descending: true }, { expression: v('class') }],
    limit,
  });
}

/**
 * The properties the things of the sentence have (`?property`), with how many have each (`?n`);
 * `inverse`: the properties that point at them, with how many are pointed at.
 */
export function propertiesQuery(sentence: Sentence, limit: number, inverse = false): string {
  const link = inverse
    ? { subject: v('any'), predicate: v('property'), object: v(SUBJECT) }
    : { subject: v(SUBJECT), predicate: v('property'), object: v('any') };
  return select({
    variables: [v('property'), count(SUBJECT, 'n')],
    where: [...patterns(sentence), { type: 'bgp', triples: [link] }],
    group: [{ expression: v('property') }],
    order: [{ expression: v('n'), descending: true }, { expression: v('property') }],
    limit,
  });
}

function lastOpenStep(sentence: Sentence): number {
  const last = sentence.steps.length - 1;
  if (last < 0 || sentence.steps[last]!.filter) {
    throw invalid('steps: the last step must be a property without a value yet', 'steps');
  }
  return last;
}

/** The values of the last step's property (`?value`), with how many things have each (`?n`). */
export function valuesQuery(sentence: Sentence, limit: number): string {
  const value = stepVariable(lastOpenStep(sentence));
  return select({
    variables: [{ expression: v(value), variable: v('value') }, count(SUBJECT, 'n')],
    where: patterns(sentence),
    group: [{ expression: v(value) }],
    order: [{ expression: v('n'), descending: true }, { expression: v('value') }],
    limit,
  });
}

/** The numbers among the last step's values: `?min`, `?max` and how many (`?n`); `?n` 0 when none. */
export function rangeQuery(sentence: Sentence): string {
  const value = v(stepVariable(lastOpenStep(sentence)));
  const aggregate = (aggregation: string, as: string): VariableExpression => ({
    expression: { type: 'aggregate', aggregation, distinct: false, expression: value } as Expression,
    variable: v(as),
  });
  return select({
    variables: [aggregate('min', 'min'), aggregate('max', 'max'), aggregate('count', 'n')],
    where: [
      ...patterns(sentence),
      {
        type: 'filter',
        expression: { type: 'operation', operator: 'isnumeric', args: [value] } as Expression,
      },
    ],
  });
}

/** Whether the dataset has anything loaded: true once a load put triples into one of its graphs. */
export const LOADED_QUERY = 'ASK { GRAPH ?g { ?s ?p ?o } }';
