// The query page's view: the dataset as the Action API shows the asker, whether anything is
// loaded, and the sentence builder's choices and results — each a query of lib/triplestore/
// builder.ts sent to the dataset's endpoint as the asker (sendSparql), so the builder sees
// exactly what the endpoint would show that person and works on any loaded dataset.
import { DataFactory, type Literal, type NamedNode } from 'n3';
import { isDomainError } from '../../lib/process/errors.ts';
import type { Runtime } from '../../app/runtime.ts';
import {
  LOADED_QUERY,
  SUBJECT,
  classesQuery,
  countQuery,
  localName,
  propertiesQuery,
  rangeQuery,
  resultsQuery,
  stepVariable,
  stepWords,
  termWords,
  valuesQuery,
  words,
  type Sentence,
} from '../../lib/triplestore/builder.ts';
import { bindingsOf, type QueryResult, type ResultTerm } from '../../lib/triplestore/contract.ts';
import { isStrictIri } from '../../lib/triplestore/names.ts';
import { callAction } from './actions.ts';
import { sendSparql } from './sparql.ts';
import type { Asker } from './source.ts';
import type { BuilderChoice, BuilderView, QueryPageView } from './views.ts';
import { text } from '../../lib/json.ts';

/** Rows the builder shows; the count tells how many there are in all. */
export const RESULT_ROWS = 100;
/** Classes, properties or values offered at each step. */
export const CHOICES = 50;

type Dict = Record<string, unknown>;
type Row = Record<string, ResultTerm>;

/** A term of a SPARQL JSON result as an RDF/JS term. */
function termOf(term: ResultTerm) {
  if (term.type === 'uri') return DataFactory.namedNode(term.value);
  if (term.type === 'bnode') return DataFactory.blankNode(term.value);
  if (term.type === 'literal') {
    const datatype = term.datatype === undefined ? undefined : DataFactory.namedNode(term.datatype);
    return DataFactory.literal(term.value, term['xml:lang'] ?? datatype);
  }
  return DataFactory.literal(term.value);
}

function rowsOf(result: QueryResult | { type: 'update' }): Row[] {
  return result.type === 'select' ? bindingsOf(result) : [];
}

const number = (row: Row | undefined, name: string): number => Number(row?.[name]?.value ?? 0);

/** IRIs offered by a query binding `name` and `?n` (blank nodes, and IRIs no query can name, are not). */
function iriChoices(rows: Row[], name: string): BuilderChoice[] {
  return rows
    .filter((row) => row[name]?.type === 'uri' && isStrictIri(row[name].value))
    .map((row) => ({ value: row[name]!.value, label: localName(row[name]!.value), count: number(row, 'n') }));
}

function valueChoices(rows: Row[]): BuilderChoice<NamedNode | Literal>[] {
  const choices: BuilderChoice<NamedNode | Literal>[] = [];
  for (const row of rows) {
    const value = row.value;
    if (value?.type !== 'literal' && (value?.type !== 'uri' || !isStrictIri(value.value))) continue;
    const term = termOf(value) as NamedNode | Literal;
    choices.push({ value: term, label: termWords(term), count: number(row, 'n') });
  }
  return choices;
}

export class QuerySource {
  readonly #runtime: Runtime;

  constructor(runtime: Runtime) {
    this.#runtime = runtime;
  }

  #query(asker: Asker, id: string, text: string) {
    return sendSparql(this.#runtime, 'query', { credential: asker.credential, id, text });
  }

  async page(asker: Asker, name: string, sentence: Sentence): Promise<QueryPageView> {
    const call = (action: 'package_show' | 'labld_dataset_permissions', params: Dict) =>
      callAction(this.#runtime, action, params, asker.credential) as Promise<Dict>;
    const d = await call('package_show', { id: name });
    const id = text(d.id);
    const may = await call('labld_dataset_permissions', { id });
    const loaded = await this.#query(asker, id, LOADED_QUERY);
    const view: QueryPageView = {
      dataset: { name: text(d.name), title: text(d.title) || text(d.name) },
      endpoint: `/dataset/${encodeURIComponent(text(d.name))}/triplestore/sparql`,
      loaded: loaded.type === 'ask' && loaded.boolean,
      canLoad: may.load_triplestore === true,
      defaultQuery: classesQuery(CHOICES),
    };
    if (view.loaded) view.builder = await this.#builder(asker, id, sentence);
    return view;
  }

  async #builder(asker: Asker, id: string, sentence: Sentence): Promise<BuilderView> {
    const errors: string[] = [];
    // A part too costly for the limits (a timeout, too many rows) is told; the others still show.
    const part = async <T>(work: () => Promise<T>, fallback: T): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        if (!isDomainError(error) || (error.kind !== 'upstream-timeout' && error.kind !== 'too-large'))
          throw error;
        errors.push(error.message);
        return fallback;
      }
    };
    const ask = (query: string) => part(async () => rowsOf(await this.#query(asker, id, query)), []);
    const sparql = resultsQuery(sentence, RESULT_ROWS);
    const last = sentence.steps.at(-1);
    const open = last !== undefined && !last.filter;
    // An empty sentence selects nothing (its one solution binds no variable): no results until a
    // class or property is picked, rather than a row of "—".
    const empty = sentence.class === undefined && sentence.steps.length === 0;
    const [classes, properties, pointing, values, range, rows, total] = await Promise.all([
      ask(classesQuery(CHOICES)),
      ask(propertiesQuery(sentence, CHOICES)),
      ask(propertiesQuery(sentence, CHOICES, true)),
      open ? ask(valuesQuery(sentence, CHOICES)) : [],
      // What points at a thing is never a number.
      open && !last.inverse ? ask(rangeQuery(sentence)) : [],
      empty ? undefined : part(async () => rowsOf(await this.#query(asker, id, sparql)), undefined),
      empty ? [] : ask(countQuery(sentence)),
    ]);
    const view: BuilderView = {
      sentence,
      words: words(sentence),
      stepWords: sentence.steps.map(stepWords),
      sparql,
      classes: iriChoices(classes, 'class'),
      properties: iriChoices(properties, 'property'),
      inverseProperties: iriChoices(pointing, 'property'),
    };
    if (open) {
      const numbers = range[0];
      view.values = {
        property: last.property,
        inverse: last.inverse === true,
        choices: valueChoices(values),
        ...(number(numbers, 'n') > 0
          ? { numbers: { min: numbers!.min!.value, max: numbers!.max!.value, count: number(numbers, 'n') } }
          : {}),
      };
    }
    if (rows) {
      const columns = [SUBJECT, ...sentence.steps.map((_, i) => stepVariable(i))];
      view.results = {
        columns: [
          sentence.class === undefined ? 'Thing' : localName(sentence.class),
          ...sentence.steps.map((s) => `${localName(s.property)}${s.inverse ? ' of' : ''}`),
        ],
        rows: rows.map((row) => columns.map((c) => (row[c] ? termWords(termOf(row[c])) : null))),
        total: Math.max(number(total[0], 'n'), rows.length),
      };
    }
    if (errors.length > 0) view.error = [...new Set(errors)].join(' ');
    return view;
  }
}
