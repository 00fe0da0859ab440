// labld_dataset_page {id}: everything a dataset's page shows, from one read of the store
// (CatalogueStore.datasetPage) in one request: package_show's dict, labld_dataset_permissions',
// labld_status_show's, labld_dead_letter_list's (its admins; else null) and the names of the
// users who made its resources (by id; for a logged-in viewer, as user_show needs a login).
import { datasetPageFor, type Action } from './context.ts';
import { permissionsOf } from './datasets.ts';
import { packageDict } from './dicts.ts';
import { required } from './params.ts';
import { datasetStatus } from './status.ts';
import { deadLetterDict } from './chain-replay.ts';

const datasetPage: Action = async (deps, viewer, params) => {
  const { dataset, resources, steps, deadLetters, makers } = await datasetPageFor(
    deps.store,
    viewer,
    required(params, 'id'),
  );
  const permissions = permissionsOf(viewer, dataset);
  return {
    package: await packageDict(deps.datastore, deps.siteUrl, dataset, resources),
    permissions,
    status: datasetStatus(dataset.id, steps, resources),
    dead_letters: permissions.dead_letters ? deadLetters.map(deadLetterDict) : null,
    makers: viewer.user === undefined ? {} : makers,
  };
};

export const datasetPageActions = { labld_dataset_page: datasetPage };
