// The load button as an action (`triplestore_load`, the original's name): the caller must be
// the dataset's editor. The action decides; the load itself is the load-triplestore consumer's
// step, which the gateway starts with the event this answer names (the dataset's id).
import { datasetFor, type Action } from './context.ts';
import { required } from './params.ts';

const triplestoreLoad: Action = async (deps, viewer, params) => {
  const dataset = await datasetFor(deps.store, viewer, 'triplestore.load', required(params, 'id'));
  return { dataset_id: dataset.id, status: 'pending' };
};

export const triplestoreActions = { triplestore_load: triplestoreLoad };
