// The dataset's load status (spec step 7) as its page and labld_status_show tell it: queued
// when Load is pressed (or convert finished under LABLD_TRIPLESTORE_AUTOLOAD), running, done
// with what was loaded, or failed in words with what to do. It is kept with the chain's step
// statuses (lib/chain/status.ts's states and transitions), the dataset's id standing as the
// source: a load is of the whole dataset, and the row goes with the dataset when it is deleted.
import { randomUUID } from 'node:crypto';
import {
  LOAD_STEP,
  elapsedMs,
  failStep,
  finishStep,
  queueStep,
  startStep,
  type StepStatus,
  type StepSummary,
} from './status.ts';
import type { LoadReason } from '../contracts/triplestore.ts';
import { invalid } from '../process/errors.ts';
import type { LoadOutcome } from './load.ts';

/** What the load's status asks of the catalogue store (which fulfils this): its step-status rows. */
export interface LoadStatusStore {
  getDataset(idOrName: string): Promise<{ id: string } | undefined>;
  getStepStatus(
    sourceResourceId: string,
    step: typeof LOAD_STEP,
  ): Promise<{ status: StepStatus } | undefined>;
  putStepStatus(row: { source_resource_id: string; package_id: string; status: StepStatus }): Promise<void>;
}

const now = () => new Date().toISOString();

export async function loadStatus(store: LoadStatusStore, datasetId: string): Promise<StepStatus | undefined> {
  return (await store.getStepStatus(datasetId, LOAD_STEP))?.status;
}

async function put(store: LoadStatusStore, datasetId: string, status: StepStatus): Promise<void> {
  await store.putStepStatus({ source_resource_id: datasetId, package_id: datasetId, status });
}

/** The Load button was pressed: a new run is queued (the dataset id, not its name). */
export async function queueLoad(store: LoadStatusStore, datasetId: string): Promise<StepStatus> {
  const previous = await loadStatus(store, datasetId);
  const queued = queueStep(previous, { step: LOAD_STEP, run: randomUUID(), at: now() });
  await put(store, datasetId, queued);
  return queued;
}

const count = (n: number, what: string) => `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`;

/** The rows' part of the note, when they were asked for: how many sources, how many triples. */
function rowsNote(outcome: LoadOutcome): string[] {
  if (!outcome.rows) return [];
  const rows = outcome.loaded.filter((g) => g.rows);
  if (rows.length === 0) return ['no rows yet (no source has been through the describe step)'];
  const triples = rows.reduce((n, g) => n + g.triples, 0);
  return [`with the rows of ${count(rows.length, 'source')} (${count(triples, 'triple')})`];
}

/** What a finished load says: graphs and triples, the rows, and the resources that could not be loaded. */
export function loadSummary(outcome: LoadOutcome, durationMs: number): StepSummary {
  const triples = outcome.loaded.reduce((n, g) => n + g.triples, 0);
  const graphs = outcome.loaded.length;
  const parts = [
    graphs === 0
      ? 'nothing to load: the dataset has no joined graph (*-joined.ttl) or Turtle file yet'
      : count(graphs, 'graph'),
    ...rowsNote(outcome),
    ...outcome.failed.map((f) => `not loaded: ${f.error}`),
  ];
  return { durationMs, triples, note: parts.join('; '), ...(outcome.rows ? { withRows: true } : {}) };
}

/**
 * Runs `load` under the dataset's load status: queued (a new run unless one is waiting) →
 * running → done, or failed when it threw or when no graph could be loaded at all. A `sync`
 * of a dataset whose load was never asked for, and anything about a deleted dataset, runs
 * without a status.
 */
export async function withLoadStatus(
  store: LoadStatusStore,
  datasetId: string,
  reason: LoadReason,
  load: () => Promise<LoadOutcome>,
): Promise<LoadOutcome> {
  const dataset = await store.getDataset(datasetId);
  const previous = dataset ? await loadStatus(store, dataset.id) : undefined;
  if (!dataset || (reason === 'sync' && previous === undefined)) return load();
  const waiting = previous !== undefined && previous.state !== 'done';
  const queued = waiting ? previous : queueStep(previous, { step: LOAD_STEP, run: randomUUID(), at: now() });
  const running = startStep(queued, queued.run, now());
  await put(store, dataset.id, running);
  const started = performance.now();
  let outcome: LoadOutcome;
  try {
    outcome = await load();
  } catch (error) {
    await put(store, dataset.id, failStep(running, running.run, now(), error));
    throw error;
  }
  const nothingLoaded = outcome.loaded.length === 0 && outcome.failed.length > 0;
  const final = nothingLoaded
    ? failStep(running, running.run, now(), invalid(outcome.failed.map((f) => f.error).join('; '), 'body'))
    : finishStep(running, running.run, now(), loadSummary(outcome, elapsedMs(started)));
  // Load pressed while this one ran: its queued run stays for the load that follows to take up,
  // rather than the page saying done while a load is still to come.
  const latest = await loadStatus(store, dataset.id);
  if (latest?.state === 'queued' && latest.run !== running.run) return outcome;
  await put(store, dataset.id, final);
  return outcome;
}
