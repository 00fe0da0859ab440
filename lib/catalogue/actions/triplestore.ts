// The load button as an action (`triplestore_load`, the original's name): the caller must be
// the dataset's editor. The action decides; the load itself is the load-triplestore consumer's
// step, which the gateway starts with the event this answer names (the dataset's id).
import { datasetFor, type Action } from './context.ts';
import { required } from './params.ts';
import { queueLoad } from '../../triplestore/load-status.ts';

const triplestoreLoad: Action = async (deps, viewer, params) => {
  const dataset = await datasetFor(deps.store, viewer, 'triplestore.load', required(params, 'id'));
  // Queued here, where the decision is made, so that the page says so at once.
  const queued = await queueLoad(deps.store, dataset.id);
  return { dataset_id: dataset.id, status: 'pending', run: queued.run };
};

export const triplestoreActions = { triplestore_load: triplestoreLoad };
