// A table preview's query (a resource page's `sort`, `order`, `q`, `f.<column>`, `min.<column>`,
// `max.<column>`, `page`) as a datastore search: checked against the table's columns first, so
// that a refusal names the page's parameter, not the search's. A text column is searched (`q`),
// a number column matched exactly (`filters`) or within its bounds (labld's range filter).
// Plain functions: the resource page's composite read (labld_resource_page) runs them beside
// the store, in one request.
import { invalid } from '../process/errors.ts';
import type { Field, SearchParams } from './contract.ts';

/** Rows per page of the preview. */
export const TABLE_PAGE_SIZE = 25;
/** Query parameter of a column's filter: `f.<column name>`. */
export const FILTER_PREFIX = 'f.';
/** Query parameters of a number column's bounds: `min.<column name>`, `max.<column name>`. */
export const MIN_PREFIX = 'min.';
export const MAX_PREFIX = 'max.';

/** A numeric column's bounds as typed in the preview (either may be missing). */
export interface Range {
  min?: string;
  max?: string;
}

/** Sort, filter and page of a table preview, as asked in the query string. */
export interface TableQuery {
  sort?: { column: string; order: 'asc' | 'desc' };
  /** Column name → non-empty filter text. */
  filters: Record<string, string>;
  /** Column name → the bounds given (`min.<column>`, `max.<column>`), as typed. */
  ranges: Record<string, Range>;
  /** Words searched in every text column (datastore_search's `q`). */
  q?: string;
  page: number;
}

export type ColumnType = 'number' | 'text';

/** The datastore's types as the table preview sorts and aligns them. */
export function columnType(type: unknown): ColumnType {
  return type === 'int' || type === 'float' || type === 'numeric' ? 'number' : 'text';
}

/** A datastore column name in `sort`: quoted, with quotes doubled, so that no name is read as syntax. */
function quoted(column: string): string {
  return `"${column.replace(/"/g, '""')}"`;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A number the page was given for `parameter`, or a refusal naming it. */
function numberOf(parameter: string, column: string, value: string): number {
  if (!NUMBER.test(value))
    throw invalid(`${parameter}: column ${JSON.stringify(column)} holds numbers: give one`, parameter);
  return Number(value);
}

/** The search of `resourceId`'s table for the page `table` asks, its columns being `fields`. */
export function tableSearch(fields: readonly Field[], resourceId: string, table: TableQuery): SearchParams {
  const types = new Map(fields.map((f) => [f.id, f.type]));
  const params: SearchParams = {
    resource_id: resourceId,
    limit: TABLE_PAGE_SIZE,
    offset: (table.page - 1) * TABLE_PAGE_SIZE,
  };
  const known = (parameter: string, column: string) => {
    if (!types.has(column))
      throw invalid(`${parameter}: no column ${JSON.stringify(column)} in this table`, parameter);
    return columnType(types.get(column));
  };
  if (table.sort) {
    known('sort', table.sort.column);
    params.sort = `${quoted(table.sort.column)} ${table.sort.order}`;
  }
  const q: Record<string, string> = {};
  const filters: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(table.filters)) {
    const parameter = `${FILTER_PREFIX}${column}`;
    if (known(parameter, column) === 'text') q[column] = value;
    else filters[column] = numberOf(parameter, column, value);
  }
  for (const [column, range] of Object.entries(table.ranges)) {
    const bounds: Record<string, number> = {};
    for (const [prefix, key, value] of [
      [MIN_PREFIX, 'gte', range.min],
      [MAX_PREFIX, 'lte', range.max],
    ] as const) {
      if (value === undefined) continue;
      const parameter = `${prefix}${column}`;
      if (known(parameter, column) !== 'number')
        throw invalid(
          `${parameter}: column ${JSON.stringify(column)} holds text: a range needs numbers`,
          parameter,
        );
      if (column in filters)
        throw invalid(
          `${parameter}: column ${JSON.stringify(column)} has an exact filter already`,
          parameter,
        );
      bounds[key] = numberOf(parameter, column, value);
    }
    filters[column] = bounds;
  }
  // datastore_search's `q` is either words in any text column or words per column.
  if (Object.keys(q).length > 0) {
    if (table.q !== undefined)
      throw invalid('q: search every column or filter text columns, not both at once', 'q');
    params.q = q;
  } else if (table.q !== undefined) params.q = table.q;
  if (Object.keys(filters).length > 0) params.filters = filters;
  return params;
}
