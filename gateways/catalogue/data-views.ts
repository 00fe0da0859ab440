// The data parts of the pages, from the datastore's answers: the table preview (a page of a
// resource's rows, sorted and filtered by the page's own parameters, searched by
// labld_resource_page: lib/datastore/table-query.ts) and the plot section (a dataset's tables
// and their numeric columns). Plain functions over answers and an action caller, so that
// action-source.ts stays the pages' one door to the bus.
import { resourcePath } from './pages/datasets.ts';
import { pointsPath } from './pages/dataset-data.ts';
import { unitSymbol } from '../../lib/annotator/units.ts';
import { unitShown } from '../../lib/datastore/plot.ts';
import type { Field } from '../../lib/datastore/contract.ts';
import { columnType, TABLE_PAGE_SIZE, type TableQuery } from '../../lib/datastore/table-query.ts';
import type { PlotQuery } from './source.ts';
import type { PlotView, TablePreviewView } from './views.ts';
import { text } from '../../lib/json.ts';

/** A page of a table's rows as labld_resource_page answers it (datastore_search's fields and records). */
export interface FoundRows {
  fields: Dict[];
  records: Dict[];
  total?: number;
}

type Dict = Record<string, unknown>;
/** An action called as the page's asker. */
export type Call = (action: 'labld_datastore_plot', params: Dict) => Promise<unknown>;

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

/** The preview's view of a page of rows: `fields` the table's (with units), `found` the rows searched. */
export function tablePreview(info: readonly Field[], found: FoundRows, table: TableQuery): TablePreviewView {
  const units = new Map(
    info.map((f) => [f.id, f.info?.unit ? unitShown(f.info.unit, unitSymbol) : undefined]),
  );
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
