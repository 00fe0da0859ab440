// The data parts of the pages, from the datastore's actions: the table preview (a page of a
// resource's rows, sorted and filtered by the page's own parameters) and the plot section (a
// dataset's tables and their numeric columns). Plain functions over an action caller, so that
// action-source.ts stays the pages' one door to the bus.
import { invalid } from '../../lib/process/errors.ts';
import { resourcePath } from './pages/datasets.ts';
import { pointsPath } from './pages/dataset-data.ts';
import { FILTER_PREFIX, MAX_PREFIX, MIN_PREFIX } from './pages/resource.ts';
import { unitSymbol } from '../../lib/annotator/units.ts';
import { unitShown } from '../../lib/datastore/plot.ts';
import type { Field } from '../../lib/datastore/contract.ts';
import type { PlotQuery, TableQuery } from './source.ts';
import type { ColumnType, PlotView, TablePreviewView } from './views.ts';
import { text } from '../../lib/json.ts';

export const TABLE_PAGE_SIZE = 25;

type Dict = Record<string, unknown>;
/** An action called as the page's asker. */
export type Call = (
  action: 'datastore_search' | 'datastore_info' | 'labld_datastore_plot',
  params: Dict,
) => Promise<unknown>;

/** The datastore's types as the table preview sorts and aligns them. */
function columnType(type: unknown): ColumnType {
  return type === 'int' || type === 'float' || type === 'numeric' ? 'number' : 'text';
}

/** A datastore column name in `sort`: quoted, with quotes doubled, so that no name is read as syntax. */
function quoted(column: string): string {
  return `"${column.replace(/"/g, '""')}"`;
}

/** The plot section: the chosen (or first) table and columns; none without a table. */
export async function plotView(
  call: Call,
  dataset: string,
  resources: Dict[],
  q: PlotQuery,
): Promise<{ plot?: PlotView }> {
  const tables = resources
    .filter((r) => r.datastore_active === true)
    .map((r) => ({ id: text(r.id), name: text(r.name) || text(r.id) }));
  if (tables.length === 0) return {};
  // A table or column the form no longer offers (the table was switched with the old table's
  // columns still in the form, or an edited address) is told in the plot section, never a
  // page of its own: the page shows the first table, or the table's first columns.
  const known = q.resource === undefined || tables.some((t) => t.id === q.resource);
  const resource = known ? (q.resource ?? tables[0]!.id) : tables[0]!.id;
  const found = (await call('labld_datastore_plot', { resource_id: resource })) as Dict;
  const columns = (Array.isArray(found.columns) ? (found.columns as Dict[]) : []).map((c) => ({
    id: text(c.id),
    label: text(c.label),
  }));
  const view: PlotView = { resources: tables, resource, columns };
  if (!known) {
    view.refused = `plot: ${JSON.stringify(q.resource)} is not a table of this dataset; showing ${tables[0]!.name}`;
  }
  const column = (id: string | undefined) =>
    id !== undefined && columns.some((c) => c.id === id) ? id : undefined;
  const x = column(q.x) ?? columns[0]?.id;
  const y = column(q.y) ?? (columns[1] ?? columns[0])?.id;
  if (x !== undefined && y !== undefined) {
    view.x = x;
    view.y = y;
    view.pointsUrl = pointsPath(resourcePath(dataset, resource), x, y);
  }
  return { plot: view };
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A number the page was given for `parameter`, or a refusal naming it. */
function numberOf(parameter: string, column: string, value: string): number {
  if (!NUMBER.test(value))
    throw invalid(`${parameter}: column ${JSON.stringify(column)} holds numbers: give one`, parameter);
  return Number(value);
}

/**
 * The page's `sort`, `q`, `f.<column>`, `min.<column>` and `max.<column>` as datastore_search
 * parameters, checked against the table's columns first, so that a refusal names the page's
 * parameter, not the action's: a text column is searched (`q`), a number column matched exactly
 * (`filters`) or within its bounds (labld's range filter).
 */
function narrowing(types: ReadonlyMap<string, unknown>, table: TableQuery): Dict {
  const params: Dict = {};
  const known = (parameter: string, column: string) => {
    if (!types.has(column))
      throw invalid(`${parameter}: no column ${JSON.stringify(column)} in this table`, parameter);
    return columnType(types.get(column));
  };
  if (table.sort) {
    known('sort', table.sort.column);
    params.sort = `${quoted(table.sort.column)} ${table.sort.order}`;
  }
  const q: Dict = {};
  const filters: Dict = {};
  for (const [column, value] of Object.entries(table.filters)) {
    const parameter = `${FILTER_PREFIX}${column}`;
    if (known(parameter, column) === 'text') q[column] = value;
    else filters[column] = numberOf(parameter, column, value);
  }
  for (const [column, range] of Object.entries(table.ranges)) {
    const bounds: Dict = {};
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

export async function tablePreview(call: Call, id: string, table: TableQuery): Promise<TablePreviewView> {
  // The table's fields with their units (datastore_info), which also check the page's columns.
  const info = (await call('datastore_info', { id })) as { fields: Field[] };
  const types = new Map(info.fields.map((f) => [f.id, f.type]));
  const units = new Map(
    info.fields.map((f) => [f.id, f.info?.unit ? unitShown(f.info.unit, unitSymbol) : undefined]),
  );
  const params: Dict = {
    resource_id: id,
    limit: TABLE_PAGE_SIZE,
    offset: (table.page - 1) * TABLE_PAGE_SIZE,
    ...narrowing(types, table),
  };
  const found = (await call('datastore_search', params)) as {
    fields: Dict[];
    records: Dict[];
    total?: number;
  };
  const fields = found.fields.filter((f) => f.id !== '_id');
  return {
    columns: fields.map((f) => {
      const unit = units.get(text(f.id));
      return { name: text(f.id), type: columnType(f.type), ...(unit ? { unit } : {}) };
    }),
    rows: found.records.map((record) =>
      fields.map((f) => {
        const value = record[text(f.id)];
        return typeof value === 'number' || typeof value === 'string'
          ? value
          : value == null
            ? null
            : String(value);
      }),
    ),
    ...(table.sort ? { sort: table.sort } : {}),
    filters: table.filters,
    ranges: table.ranges,
    ...(table.q ? { q: table.q } : {}),
    page: table.page,
    pageSize: TABLE_PAGE_SIZE,
    total: found.total ?? found.records.length,
  };
}
