// The load button as an action (`triplestore_load`, the original's name): the caller must be
// the dataset's editor. The action decides; the load itself is the load-triplestore consumer's
// step, started by the event the action keeps in the outbox with its queued run (the dataset's
// id, and `rows`: the sources' rows too, labld's own parameter, default false as the spec loads).
import { datasetFor, type Action } from './context.ts';
import { bool, required } from './params.ts';
import { announceLoad } from './triplestore-events.ts';
import { checkRowsLimit, isRows } from '../../chain/load.ts';

const triplestoreLoad: Action = async (deps, viewer, params) => {
  const dataset = await datasetFor(deps.store, viewer, 'triplestore.load', required(params, 'id'));
  const rows = bool(params, 'rows') ?? false;
  // Refused here, so that the caller hears it (413) rather than reading it off the status later.
  if (rows) checkRowsLimit(deps.blobs, (await deps.store.listResources(dataset.id)).filter(isRows));
  // Queued here, where the decision is made, so that the page says so at once.
  const queued = await announceLoad(deps.store, dataset.id, rows);
  return { dataset_id: dataset.id, status: 'pending', run: queued.run, rows };
};

export const triplestoreActions = { triplestore_load: triplestoreLoad };
