// The automation chain's step status through the Action API: labld_status_show (per source
// resource, every step of its last run) and CKAN's task_status_show (one step of one resource,
// in the shape of CKAN's task_status rows, with the original's states: research §1.6).
import {
  CHAIN_STEPS,
  LOAD_STEP,
  NEEDS_MAPPING,
  type ChainStep,
  type StatusStep,
  type StepStatus,
} from '../../chain/index.ts';
import { invalid, notFound } from '../../process/errors.ts';
import type { SourceStepStatus } from '../store/contract.ts';
import type { Resource } from '../model.ts';
import { datasetFor, resourceFor, type Action } from './context.ts';
import { optional, required } from './params.ts';
import { announceUpload } from './chain-events.ts';
import { retryStep } from './chain-replay.ts';

/** The task_type of the chain's steps in task_status_show. */
export const TASK_TYPE = 'labld_chain';

const ORDER: readonly StatusStep[] = CHAIN_STEPS;
const byStepOrder = (a: SourceStepStatus, b: SourceStepStatus) =>
  ORDER.indexOf(a.status.step) - ORDER.indexOf(b.status.step);

/** Status rows as the API shows them: the status itself, with its resource. */
function shown(rows: SourceStepStatus[]) {
  const bySource = new Map<string, StepStatus[]>();
  for (const row of [...rows].sort(byStepOrder)) {
    bySource.set(row.source_resource_id, [...(bySource.get(row.source_resource_id) ?? []), row.status]);
  }
  return [...bySource].map(([resource_id, steps]) => ({ resource_id, steps }));
}

/** labld_status_show {id: dataset} or {resource_id}: the steps of each source resource, in chain order. */
const statusShow: Action = async (deps, viewer, params) => {
  const resourceId = optional(params, 'resource_id');
  if (resourceId !== undefined) {
    const { resource } = await resourceFor(deps.store, viewer, 'resource.read', resourceId, 'resource_id');
    const rows = await deps.store.listStepStatus({ source_resource_id: resource.id });
    return sourceStatus(resource.package_id, rows);
  }
  const dataset = await datasetFor(deps.store, viewer, 'dataset.read', required(params, 'id'));
  const rows = await deps.store.listStepStatus({ package_id: dataset.id });
  return datasetStatus(dataset.id, rows, await deps.store.listResources(dataset.id));
};

/** labld_status_show's answer for one source resource (`rows`: its status rows). */
export function sourceStatus(datasetId: string, rows: SourceStepStatus[]) {
  return { dataset_id: datasetId, resources: shown(rows) };
}

/** labld_status_show's answer for a dataset: its status rows, by its resources in their order. */
export function datasetStatus(datasetId: string, rows: SourceStepStatus[], resources: Resource[]) {
  // The dataset's own row: its load into the triple store (lib/chain/load-status.ts).
  const isLoad = (row: SourceStepStatus) =>
    row.status.step === LOAD_STEP && row.source_resource_id === datasetId;
  const order = new Map(resources.map((r, i) => [r.id, i]));
  const sources = shown(rows.filter((row) => !isLoad(row))).sort(
    (a, b) => (order.get(a.resource_id) ?? 0) - (order.get(b.resource_id) ?? 0),
  );
  return { dataset_id: datasetId, resources: sources, triplestore: rows.find(isLoad)?.status ?? null };
}

/**
 * CKAN's task states, as the original's jobs reported them. A source waiting for a mapping is
 * `error` there (with the reason as its error): CKAN's clients know only these four, wait for
 * `complete` or `error`, and must not read it as complete.
 */
const CKAN_STATE = {
  queued: 'pending',
  running: 'running',
  done: 'complete',
  failed: 'error',
  [NEEDS_MAPPING]: 'error',
} as const;

/** task_status_show's `error`: a failure's detail and action, or why the step waits. */
function taskError(status: StepStatus): string {
  if (status.state === 'failed') return `${status.failure.detail} (${status.failure.action})`;
  if (status.state === NEEDS_MAPPING) return `needs a mapping: ${status.summary.note ?? ''}`;
  return '';
}

/** task_status_show {entity_id, task_type: labld_chain, key: <step>}. */
const taskStatusShow: Action = async (deps, viewer, params) => {
  const entityId = required(params, 'entity_id');
  const taskType = optional(params, 'task_type') ?? TASK_TYPE;
  if (taskType !== TASK_TYPE) throw invalid(`must be ${TASK_TYPE}`, 'task_type');
  const key = required(params, 'key');
  if (!(CHAIN_STEPS as readonly string[]).includes(key)) {
    throw invalid(`must be one of ${CHAIN_STEPS.join(', ')}`, 'key');
  }
  const { resource } = await resourceFor(deps.store, viewer, 'resource.read', entityId, 'entity_id');
  const row = await deps.store.getStepStatus(resource.id, key as ChainStep);
  if (!row) throw notFound(`no ${key} task for resource ${resource.id}`, 'key');
  const { status } = row;
  return {
    id: `${resource.id}:${key}`,
    entity_id: resource.id,
    entity_type: 'resource',
    task_type: TASK_TYPE,
    key,
    value: JSON.stringify(status),
    state: CKAN_STATE[status.state],
    error: taskError(status),
    last_updated:
      'finishedAt' in status ? status.finishedAt : 'startedAt' in status ? status.startedAt : status.queuedAt,
  };
};

/**
 * labld_chain_retry {resource_id, step?}: the Retry button. With `step`, that failed step runs
 * again in its run, and the chain goes on from it (chain-replay.ts); without, the source's
 * chain runs again from its first step as a new run (each step replaces its output in place),
 * as a new upload would.
 */
const chainRetry: Action = async (deps, viewer, params) => {
  const id = required(params, 'resource_id');
  const step = optional(params, 'step');
  if (step !== undefined && !(CHAIN_STEPS as readonly string[]).includes(step)) {
    throw invalid(`must be one of ${CHAIN_STEPS.join(', ')}`, 'step');
  }
  const { resource } = await resourceFor(deps.store, viewer, 'chain.retry', id, 'resource_id');
  if (step !== undefined) {
    const again = await deps.store.transaction((tx) => retryStep(tx, resource, step as ChainStep));
    return { resource_id: resource.id, run: again, step };
  }
  const run = await deps.store.transaction((tx) => announceUpload(tx, resource));
  if (run === undefined) {
    throw invalid(
      `${resource.name} does not start the chain (not one of its trigger formats, or derived)`,
      'resource_id',
    );
  }
  return { resource_id: resource.id, run };
};

export const statusActions = {
  labld_status_show: statusShow,
  task_status_show: taskStatusShow,
  labld_chain_retry: chainRetry,
};
