// RML-LV logical views as a source: each record of the viewed source becomes one or more rows
// (one per combination of field values), keyed by field name: `name`, `name.#` (the value's
// index), `item.type` for fields nested in an iterable field, and `#` (the record's index).
// Joins add the fields of matching parent rows (the parent view is read once into an index).
import { CsvParser, DEFAULT_DIALECT } from './csv.ts';
import { dataError, mappingError } from './errors.ts';
import { LimitError, parseJson as parseLimitedJson } from '../limits.ts';
import { compileJsonPath } from './jsonpath.ts';
import type { Expression, LogicalSource, LogicalView, ViewField, ViewJoin } from './model.ts';
import {
  openReader,
  type DocumentCache,
  type Evaluator,
  type SourceOptions,
  type SourceReader,
  type Value,
} from './sources.ts';
import { parseTemplate } from './template.ts';
import { lexicalForm } from './terms.ts';

type Row = Record<string, Value | null>;
/** Values of a reference in the current context (a record, a JSON item or a row). */
type Lookup = (reference: string) => Value[];

function list(value: unknown): Value[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(list);
  return [value as Value];
}

function evaluate(expression: Expression | undefined, lookup: Lookup): Value[] {
  if (!expression) return [];
  if (expression.kind === 'constant') return [expression.term.value];
  if (expression.kind === 'reference') return lookup(expression.reference);
  if (expression.kind === 'template') {
    const { literals, references } = parseTemplate(expression.template);
    let results = [literals[0]!];
    references.forEach((reference, i) => {
      const values = lookup(reference);
      results = results.flatMap((prefix) => values.map((v) => prefix + lexicalForm(v) + literals[i + 1]!));
    });
    return results;
  }
  throw mappingError('Functions in logical view fields are not supported');
}

function product(rows: Row[], options: Row[]): Row[] {
  return rows.flatMap((row) => options.map((option) => ({ ...row, ...option })));
}

/** Every key a view's rows carry. */
function fieldKeys(fields: ViewField[], into: Set<string>): Set<string> {
  for (const field of fields) {
    into.add(`${field.name}.#`);
    if (field.expression) into.add(field.name);
    fieldKeys(field.fields, into);
  }
  return into;
}

/** JSONPath over a JSON value (a nested field reads the items of its iterable field). */
function jsonLookup(item: unknown): Lookup {
  return (reference) => {
    const path = reference.startsWith('$') ? reference : `$.${reference}`;
    return list(compileJsonPath(path)(item));
  };
}

/** The rows the fields make from one context (a record or an iterable field's item). */
function rowsOf(fields: ViewField[], lookup: Lookup, item: unknown): Row[] {
  let rows: Row[] = [{}];
  for (const field of fields) {
    let options: Row[];
    if (field.iterable) {
      options = iterate(field.iterable, item === undefined ? lookup('$') : [item]).flatMap(
        ({ sub, lookup: subLookup }, index) =>
          rowsOf(field.fields, subLookup, sub).map((row) => ({ [`${field.name}.#`]: index, ...row })),
      );
    } else {
      const values = evaluate(field.expression, lookup);
      options = values.map((value, index) => ({ [field.name]: value, [`${field.name}.#`]: index }));
      if (field.fields.length > 0) {
        options = options.flatMap((option) =>
          rowsOf(field.fields, jsonLookup(option[field.name]), option[field.name]).map((row) => ({
            ...option,
            ...row,
          })),
        );
      }
    }
    // A field without values leaves the row without it (the row is kept).
    rows = options.length === 0 ? rows : product(rows, options);
  }
  return rows;
}

/** The items of an iterable field over `values`: JSON (a string is parsed) or CSV rows. */
function iterate(
  iterable: NonNullable<ViewField['iterable']>,
  values: unknown[],
): { sub: unknown; lookup: Lookup }[] {
  return values.flatMap((value) => {
    if (iterable.formulation === 'csv') {
      const rows: string[][] = [];
      const parser = new CsvParser(DEFAULT_DIALECT, (row) => rows.push(row));
      parser.push(String(value));
      parser.end();
      const [header = [], ...records] = rows;
      return records.map((record) => {
        const sub = Object.fromEntries(header.map((column, i) => [column, record[i] ?? null]));
        return { sub, lookup: (reference: string) => list(sub[reference]) };
      });
    }
    const data = typeof value === 'string' ? parseJson(value) : value;
    const path = iterable.iterator ?? '$';
    const items = compileJsonPath(path.startsWith('$') ? path : `$.${path}`)(data);
    return items
      .flatMap((i) => (Array.isArray(i) && path === '$' ? i : [i]))
      .map((sub) => ({ sub, lookup: jsonLookup(sub) }));
  });
}

function parseJson(text: string): unknown {
  try {
    return parseLimitedJson(text, undefined, 'A value read as JSON by an iterable field');
  } catch (error) {
    if (error instanceof LimitError) throw error;
    throw dataError(`A value read as JSON by an iterable field is not JSON: ${(error as Error).message}`);
  }
}

function rowLookup(row: Row): Lookup {
  return (reference) => {
    if (!(reference in row)) return [];
    const value = row[reference];
    return value === null || value === undefined ? [] : [value];
  };
}

export class ViewReader implements SourceReader {
  readonly source: LogicalSource;
  private readonly view: LogicalView;
  private readonly options: SourceOptions;
  private readonly cache: DocumentCache;
  private readonly keys: Set<string>;

  constructor(source: LogicalSource, options: SourceOptions, cache: DocumentCache) {
    this.source = source;
    this.view = source.view!;
    this.options = options;
    this.cache = cache;
    this.keys = fieldKeys(this.view.fields, new Set(['#']));
    for (const join of this.view.joins) fieldKeys(join.fields, this.keys);
  }

  reference(expression: string): Evaluator {
    if (!this.keys.has(expression))
      throw mappingError(
        `The logical view ${this.source.node} has no field "${expression}" (fields: ${[...this.keys].join(', ')})`,
      );
    return (row) => {
      const value = (row as Row)[expression];
      return value === undefined ? null : value;
    };
  }

  async forEach(each: (record: unknown) => void, pause?: () => Promise<void> | void): Promise<void> {
    const joins = await Promise.all(this.view.joins.map((join) => this.joinIndex(join)));
    const underlying = openReader(this.view.on, this.options, this.cache);
    // CSV columns are found when the header is read: compile the references before that.
    const evaluators = new Map<string, Evaluator>();
    for (const reference of topReferences(this.view.fields))
      evaluators.set(reference, underlying.reference(reference, true));
    const json = this.view.on.formulation === 'jsonpath';
    let index = 0;
    await underlying.forEach((record) => {
      const lookup: Lookup = (reference) => {
        let evaluator = evaluators.get(reference);
        if (!evaluator) evaluators.set(reference, (evaluator = underlying.reference(reference, true)));
        return list(evaluator(record));
      };
      let rows: Row[] = rowsOf(this.view.fields, lookup, json ? record : undefined).map((row) => ({
        '#': index,
        ...row,
      }));
      index += 1;
      for (const [i, join] of this.view.joins.entries()) rows = this.join(rows, join, joins[i]!);
      for (const row of rows) each(row);
    }, pause);
  }

  /** Parent rows by join key, each reduced to the join's fields. */
  private async joinIndex(join: ViewJoin): Promise<Map<string, Row[]>> {
    const parent = new ViewReader(join.parent, this.options, this.cache);
    const index = new Map<string, Row[]>();
    await parent.forEach((record) => {
      const row = record as Row;
      const lookup = rowLookup(row);
      const fields = rowsOf(join.fields, lookup, undefined);
      for (const key of keysOf(
        join.conditions.map((c) => c.parent),
        lookup,
      )) {
        let rows = index.get(key);
        if (!rows) index.set(key, (rows = []));
        rows.push(...fields);
      }
    });
    return index;
  }

  private join(rows: Row[], join: ViewJoin, index: Map<string, Row[]>): Row[] {
    return rows.flatMap((row) => {
      const matches = keysOf(
        join.conditions.map((c) => c.child),
        rowLookup(row),
      ).flatMap((key) => index.get(key) ?? []);
      if (matches.length === 0) return join.inner ? [] : [row];
      // A joined field holds the values of every matching parent row: its index counts them.
      return matches.map((match, i) => {
        const joined: Row = { ...row, ...match };
        for (const field of join.fields) joined[`${field.name}.#`] = i;
        return joined;
      });
    });
  }
}

/** Join keys: one per combination of the condition sides' values. */
function keysOf(sides: Expression[], lookup: Lookup): string[] {
  let keys = [''];
  for (const side of sides) {
    const values = evaluate(side, lookup).map(lexicalForm);
    keys = keys.flatMap((key) => values.map((v) => `${key}\u0000${v}`));
  }
  return keys;
}

function topReferences(fields: ViewField[]): string[] {
  const references: string[] = [];
  for (const field of fields) {
    const e = field.expression;
    if (field.iterable) continue;
    if (e?.kind === 'reference') references.push(e.reference);
    else if (e?.kind === 'template') references.push(...parseTemplate(e.template).references);
  }
  return references;
}
