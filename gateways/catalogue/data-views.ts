// The data parts of the pages, from the datastore's actions: the table preview (a page of a
// resource's rows, sorted and filtered by the page's own parameters) and the plot section (a
// dataset's tables and their numeric columns). Plain functions over an action caller, so that
// action-source.ts stays the pages' one door to the bus.
import { invalid } from '../../lib/process/errors.ts';
import { resourcePath } from './pages/datasets.ts';
import { pointsPath } from './pages/dataset-data.ts';
import { FILTER_PREFIX } from './pages/resource.ts';
import type { PlotQuery, TableQuery } from './source.ts';
import type { ColumnType, PlotView, TablePreviewView } from './views.ts';
import { text } from '../../lib/json.ts';

export const TABLE_PAGE_SIZE = 25;

type Dict = Record<string, unknown>;
/** An action called as the page's asker. */
export type Call = (action: 'datastore_search' | 'labld_datastore_plot', params: Dict) => Promise<unknown>;

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

/**
 * The page's `sort` and `f.<column>` as datastore_search parameters, checked against the table's
 * columns first, so that a refusal names the page's parameter, not the action's: a text column
 * is searched (`q`), a number column matched exactly (`filters`).
 */
async function narrowing(call: Call, id: string, table: TableQuery): Promise<Dict> {
  const filtered = Object.entries(table.filters);
  if (!table.sort && filtered.length === 0) return {};
  const head = (await call('datastore_search', { resource_id: id, limit: 0 })) as {
    fields: Dict[];
  };
  const types = new Map(head.fields.filter((f) => f.id !== '_id').map((f) => [text(f.id), f.type]));
  const params: Dict = {};
  if (table.sort) {
    const { column, order } = table.sort;
    if (!types.has(column)) throw invalid(`sort: no column ${JSON.stringify(column)} in this table`, 'sort');
    params.sort = `${quoted(column)} ${order}`;
  }
  const q: Dict = {};
  const filters: Dict = {};
  for (const [column, value] of filtered) {
    const parameter = `${FILTER_PREFIX}${column}`;
    if (!types.has(column))
      throw invalid(`${parameter}: no column ${JSON.stringify(column)} in this table`, parameter);
    if (columnType(types.get(column)) === 'text') q[column] = value;
    else if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) filters[column] = Number(value);
    else throw invalid(`${parameter}: column ${JSON.stringify(column)} holds numbers: give one`, parameter);
  }
  if (Object.keys(q).length > 0) params.q = q;
  if (Object.keys(filters).length > 0) params.filters = filters;
  return params;
}

export async function tablePreview(call: Call, id: string, table: TableQuery): Promise<TablePreviewView> {
  const params: Dict = {
    resource_id: id,
    limit: TABLE_PAGE_SIZE,
    offset: (table.page - 1) * TABLE_PAGE_SIZE,
    ...(await narrowing(call, id, table)),
  };
  const found = (await call('datastore_search', params)) as {
    fields: Dict[];
    records: Dict[];
    total?: number;
  };
  const fields = found.fields.filter((f) => f.id !== '_id');
  return {
    columns: fields.map((f) => ({ name: text(f.id), type: columnType(f.type) })),
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
    page: table.page,
    pageSize: TABLE_PAGE_SIZE,
    total: found.total ?? found.records.length,
  };
}
