// labld_resource_page {id: dataset, resource_id, table?}: everything a resource's page shows, in
// one request, from one read of the store (CatalogueStore.datasetPage, as labld_dataset_page)
// and, for a table, the datastore beside it: package_show's dict (the resource among its
// resources), labld_dataset_permissions', the resource's file (labld_resource_download's), the
// step status of its source (labld_status_show {resource_id} of the resource it was derived
// from, else its own), the names of its makers (by id; for a logged-in viewer, as user_show),
// and with `table` (the preview's query: sort, filters, ranges, q, page) the table's fields
// (datastore_info's) and that page of its rows (datastore_search's) — null without a table.
// The page made these seven calls one after another (issue 25, "under load").
import type { Datastore } from '../../datastore/contract.ts';
import { tableSearch, type Range, type TableQuery } from '../../datastore/table-query.ts';
import { invalid, notFound } from '../../process/errors.ts';
import { datasetPageFor, type Action } from './context.ts';
import { permissionsOf } from './datasets.ts';
import { packageDict } from './dicts.ts';
import { integer, object, required } from './params.ts';
import { downloadDict } from './resources.ts';
import { sourceStatus } from './status.ts';

type Dict = Record<string, unknown>;

/** A record of texts at `table.<name>`, or a refusal naming it. */
function texts(
  table: Dict,
  name: string,
  field = `table.${name}`,
  shape = 'an object of column: text',
): Record<string, string> {
  const value = table[name] ?? {};
  const ok =
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string');
  if (!ok) throw invalid(`${field}: must be ${shape}`, 'table');
  return value as Record<string, string>;
}

/** `table` as the preview's query, checked (an Action API caller may send anything). */
function tableQueryOf(params: Dict): TableQuery | undefined {
  const table = object(params, 'table');
  if (table === undefined) return undefined;
  const query: TableQuery = {
    filters: texts(table, 'filters'),
    ranges: {},
    page: integer(table, 'page', 1, 1, 1e9),
  };
  const rawRanges = table.ranges ?? {};
  if (typeof rawRanges !== 'object' || rawRanges === null || Array.isArray(rawRanges))
    throw invalid('table.ranges: must be an object of column: {min, max}', 'table');
  for (const [column, range] of Object.entries(rawRanges as Dict)) {
    const bounds = texts({ range }, 'range', `table.ranges.${column}`, '{min, max} as text') as Range;
    query.ranges[column] = {
      ...(bounds.min !== undefined ? { min: bounds.min } : {}),
      ...(bounds.max !== undefined ? { max: bounds.max } : {}),
    };
  }
  const sort = table.sort as Dict | undefined;
  if (sort !== undefined) {
    if (typeof sort?.column !== 'string' || (sort.order !== 'asc' && sort.order !== 'desc'))
      throw invalid('table.sort: must be {column, order: asc or desc}', 'table');
    query.sort = { column: sort.column, order: sort.order };
  }
  if (table.q !== undefined) {
    if (typeof table.q !== 'string') throw invalid('table.q: must be text', 'table');
    query.q = table.q;
  }
  return query;
}

/** The table's fields and the page of its rows `query` asks for. */
async function tablePage(datastore: Datastore, id: string, query: TableQuery) {
  const { fields } = await datastore.info(id);
  return { fields, found: await datastore.search(tableSearch(fields, id, query)) };
}

const resourcePage: Action = async (deps, viewer, params) => {
  const name = required(params, 'id');
  const id = required(params, 'resource_id');
  const query = tableQueryOf(params);
  // dataset.read: what resource.read and datastore.read ask of the viewer too (auth/authorize.ts).
  const { dataset, resources, steps, makers } = await datasetPageFor(deps.store, viewer, name);
  const resource = resources.find((r) => r.id === id);
  if (!resource) throw notFound(`resource_id: dataset ${name} has no resource ${id}`, 'resource_id');
  const pkg = await packageDict(deps.datastore, deps.siteUrl, dataset, resources);
  const shown = (pkg.resources as Dict[]).find((r) => r.id === id)!;
  // The chain's steps of the file: a derived resource shows its source's.
  const source = resource.derivation?.source_resource_id ?? id;
  return {
    package: pkg,
    permissions: permissionsOf(viewer, dataset),
    file: downloadDict(resource),
    status: sourceStatus(
      dataset.id,
      steps.filter((row) => row.source_resource_id === source),
    ),
    makers: viewer.user === undefined ? {} : makers,
    table:
      query !== undefined && shown.datastore_active === true
        ? await tablePage(deps.datastore, id, query)
        : null,
  };
};

export const resourcePageActions = { labld_resource_page: resourcePage };
