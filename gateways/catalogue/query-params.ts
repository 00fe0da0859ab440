// The query page's sentence in its address: `class`, then per step `p1` (the property), `d1`
// (`in` when the property is read backwards, pointing at the things sought), `f1`
// (`is`, `gt`, `ge`, `lt` or `le`; none: any value) and `v1` (the value: an IRI, or a literal
// written as n3 writes a term's id, `"2.5"^^http://…#double`; a number for a comparison). Every
// builder link is a plain GET of these, so the page works without JavaScript and can be shared.
import type * as RDF from '@rdfjs/types';
import { DataFactory, termFromId, termToId, type Literal, type NamedNode } from 'n3';
import { invalid } from '../../lib/process/errors.ts';
import {
  COMPARISONS,
  MAX_STEPS,
  checkSentence,
  type Comparison,
  type Filter,
  type Sentence,
  type Step,
} from '../../lib/triplestore/builder.ts';
import { href, segment } from './html.ts';

type Raw = Record<string, string | string[] | undefined>;

const STEP_KEY = /^p([1-9][0-9]*)$/;
/** Not n3's own factory: termFromId then parses a literal's id into value, language and datatype. */
const FACTORY = { ...DataFactory };

function one(raw: Raw, key: string): string | undefined {
  const value = raw[key];
  if (Array.isArray(value)) throw invalid(`${key}: given more than once`, key);
  return value === '' ? undefined : value;
}

/** A value in `v1`: a literal's id (it starts with `"`) or an IRI. */
function valueOf(text: string): RDF.Term {
  return text.startsWith('"') ? termFromId(text, FACTORY) : DataFactory.namedNode(text);
}

function filterOf(raw: Raw, n: number): Filter | undefined {
  const kind = one(raw, `f${n}`);
  if (kind === undefined) return undefined;
  const value = one(raw, `v${n}`);
  if (value === undefined) throw invalid(`v${n}: give the value the step compares with`, `v${n}`);
  if (kind === 'is') return { kind, value: valueOf(value) as NamedNode | Literal };
  if (!(COMPARISONS as readonly string[]).includes(kind)) {
    throw invalid(`f${n}: must be is, ${COMPARISONS.join(', ')} or nothing`, `f${n}`);
  }
  return { kind: kind as Comparison, number: value };
}

/** The sentence a query page's address asks for; `invalid` naming the parameter otherwise. */
export function parseSentence(raw: Raw): Sentence {
  const numbers = Object.keys(raw)
    .map((key) => STEP_KEY.exec(key)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  if (numbers.length > MAX_STEPS) throw invalid(`steps: at most ${MAX_STEPS}`, 'steps');
  numbers.forEach((n, i) => {
    if (n !== i + 1) throw invalid(`p${i + 1}: steps are numbered from p1 without gaps`, `p${i + 1}`);
  });
  const steps = numbers.map((n): Step => {
    const property = one(raw, `p${n}`);
    if (property === undefined) throw invalid(`p${n}: give the step's property`, `p${n}`);
    const direction = one(raw, `d${n}`);
    if (direction !== undefined && direction !== 'in') throw invalid(`d${n}: must be in or nothing`, `d${n}`);
    const filter = filterOf(raw, n);
    return { property, ...(direction === 'in' ? { inverse: true } : {}), ...(filter ? { filter } : {}) };
  });
  const cls = one(raw, 'class');
  return checkSentence(cls === undefined ? { steps } : { class: cls, steps });
}

/** The parameters that ask for `sentence` (parseSentence reads them back to the same sentence). */
export function sentenceParams(sentence: Sentence): Record<string, string> {
  const params: Record<string, string> = {};
  if (sentence.class !== undefined) params.class = sentence.class;
  sentence.steps.forEach((step, i) => {
    const n = i + 1;
    params[`p${n}`] = step.property;
    if (step.inverse) params[`d${n}`] = 'in';
    if (step.filter?.kind === 'is') {
      params[`f${n}`] = 'is';
      params[`v${n}`] = termToId(step.filter.value);
    } else if (step.filter) {
      params[`f${n}`] = step.filter.kind;
      params[`v${n}`] = step.filter.number;
    }
  });
  return params;
}

export function queryPagePath(dataset: string): string {
  return `/dataset/${segment(dataset)}/query`;
}

/** The query page of `dataset` showing `sentence`, ready for an attribute. */
export function sentenceHref(dataset: string, sentence: Sentence): string {
  return `${href(queryPagePath(dataset), sentenceParams(sentence))}#builder`;
}
