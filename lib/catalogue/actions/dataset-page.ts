// labld_dataset_page {id}: everything a dataset's page shows, from one read of the store
// (CatalogueStore.datasetPage) in one request: package_show's dict, labld_dataset_permissions',
// labld_status_show's, labld_dead_letter_list's (its admins; else null) and the names of the
// users who made its resources (by id; for a logged-in viewer, as user_show needs a login), and
// labld_datastore_plot's columns of the table its plot shows (`plot`, a resource id, else its
// first table; null without a table or when `plot` names none of its tables).
import { datasetPageFor, type Action } from './context.ts';
import { permissionsOf } from './datasets.ts';
import { packageDict } from './dicts.ts';
import { optional, required } from './params.ts';
import { plotColumns } from './plot.ts';
import { datasetStatus } from './status.ts';
import { deadLetterDict } from './chain-replay.ts';

const datasetPage: Action = async (deps, viewer, params) => {
  const { dataset, resources, steps, deadLetters, makers } = await datasetPageFor(
    deps.store,
    viewer,
    required(params, 'id'),
  );
  const permissions = permissionsOf(viewer, dataset);
  const pkg = await packageDict(deps.datastore, deps.siteUrl, dataset, resources);
  const tables = (pkg.resources as { id: string; datastore_active: boolean }[]).filter(
    (r) => r.datastore_active,
  );
  const shown = optional(params, 'plot') ?? tables[0]?.id;
  const plot = tables.some((t) => t.id === shown)
    ? plotColumns(shown!, await deps.datastore.info(shown!))
    : null;
  return {
    package: pkg,
    plot,
    permissions,
    status: datasetStatus(dataset.id, steps, resources),
    dead_letters: permissions.dead_letters ? deadLetters.map(deadLetterDict) : null,
    makers: viewer.user === undefined ? {} : makers,
  };
};

export const datasetPageActions = { labld_dataset_page: datasetPage };
