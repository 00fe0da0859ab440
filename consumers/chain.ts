// The automation chain's consumers (DESIGN §2, issue 14): one consumer group per step, each
// reading the previous step's event, calling the step's domain function (lib/chain), storing
// its output as a derived resource and writing the next event to the catalogue's outbox (its
// relay, consumers/outbox.ts, is the only publisher). They hold no state: the step
// status in the catalogue says which run a step belongs to and how far it came, so any number
// of copies may run in any process, and a message that comes twice does no harm.
//
// Per message: a status of another run (the source was replaced or deleted meanwhile) →
// dropped as stale; a step already done → acknowledged (select-mapping: chosen again, and acted
// on only when the choice changed — a replay after the library changed); else running → work → the output
// replaces the derived resource of the same (source, step) → the next step queued, its event
// kept in the outbox and done, in one transaction. A crash before that redelivers the message and the step runs
// again, replacing its output in place. A failure is recorded on the step in words and
// rethrown, so that the bus retries it (an upstream that was down: lib/chain/failed-step.ts
// forTheBus) or dead-letters it.
import type { Bus, Message } from '../lib/bus/contract.ts';
import type { TopicCatalog } from '../lib/bus/topics.ts';
import type { BlobStore } from '../lib/blobs/blob-store.ts';
import {
  FIRST_STEP,
  failStep,
  finishStep,
  forTheBus,
  progressStep,
  queueStep,
  startStep,
  type ChainStep,
  type EndState,
  type Progress,
  type StepStatus,
  type StepSummary,
} from '../lib/chain/index.ts';
import type { CatalogueStore } from '../lib/catalogue/store/contract.ts';
import type { Resource } from '../lib/catalogue/model.ts';
import type { Datastore } from '../lib/datastore/contract.ts';
import { log } from '../lib/process/log.ts';
import { dropTables } from '../lib/catalogue/actions/resources.ts';
import type { ChainStepEvent, ResourceEvent } from '../lib/contracts/chain.ts';
import type { DocumentCache } from '../lib/shared/contract.ts';
import { eventReadBy } from '../lib/chain/events.ts';
import { announceLoad } from '../lib/catalogue/actions/triplestore-events.ts';

/** A chain event as the topics carry it (lib/contracts/chain.ts): a step's, or resource.uploaded's. */
export type ChainEvent = ChainStepEvent & Partial<Pick<ResourceEvent, 'name'>>;

/** What a step's work uses (in a worker thread, or here). */
export interface StepDeps {
  store: CatalogueStore;
  datastore: Datastore;
  blobs: BlobStore;
  /** labld's public URL: the resources' download URLs, which the outputs name. */
  siteUrl: string;
  /** Fetched templates, shared (lib/fetch/cached-fetch.ts); none: fetched every time. */
  documents?: DocumentCache;
}

export interface ChainDeps extends StepDeps {
  bus: Bus;
  catalog: TopicCatalog;
  /**
   * Runs a group's step work off the main thread (the process's worker pool,
   * consumers/chain-operations.ts); without it the work runs here (tests).
   */
  offload?: (
    group: string,
    event: ChainEvent,
    signal: AbortSignal,
    /** The source as the main thread just read it: the worker need not read it again. */
    source: Resource,
  ) => Promise<StepResult>;
}

/** What a step's work is handed. */
export interface StepWork {
  deps: StepDeps;
  event: ChainEvent;
  source: Resource;
  signal: AbortSignal;
  onProgress: (progress: Progress) => void;
  /**
   * Takes work that need not hold up the next step, done after the step's result is handed back
   * (in a worker: OperationContext.later); absent, the step does it before it returns.
   */
  later?: (task: () => Promise<void>) => void;
}

/** What a step's work gives back: its summary, and the next step's event (none: the chain ends here). */
export interface StepResult {
  summary: StepSummary;
  next?: { step: ChainStep; group: string; event: ChainEvent };
  /** Load the dataset into the triple store before the step is done (convert, with auto-load on). */
  loadDataset?: boolean;
  /** The state the step ends in (default done; select-mapping with no mapping: needs-mapping). */
  ends?: EndState;
}

export interface ChainConsumer {
  /** Consumer group in topics.yaml; also the name for `labld serve`. */
  group: string;
  handle(
    deps: ChainDeps,
    event: ChainEvent,
    signal: AbortSignal,
    message: Message<ChainEvent>,
  ): Promise<void>;
}

const now = () => new Date().toISOString();

/** Progress is written at most this often (a long import reports per batch). */
const PROGRESS_EVERY_MS = 1000;

async function put(deps: StepDeps, event: ChainEvent, status: StepStatus): Promise<void> {
  await deps.store.putStepStatus({
    source_resource_id: event.resource_id,
    package_id: event.dataset_id,
    status,
  });
}

/**
 * A step that writes no output and whose result decides the next (select-mapping) runs again
 * when a message of a run it has done comes: a redelivery, or a replay after what it reads
 * changed. `changed` says whether the new result differs; only then is it recorded and the next
 * step run again, so that a replay changes only the results it should.
 */
export interface RunAgain {
  changed(before: StepSummary, after: StepSummary): boolean;
}

/**
 * Queues the next step (unless this run's is under way, or done already and not `again`) and
 * keeps its event in the outbox of `tx` (the relay publishes it, consumers/outbox.ts).
 */
async function pass(tx: StepDeps, next: NonNullable<StepResult['next']>, again = false): Promise<void> {
  const { event } = next;
  const previous = (await tx.store.getStepStatus(event.resource_id, next.step))?.status;
  const busy =
    previous?.run === event.run && (previous.state === 'running' || (previous.state === 'done' && !again));
  if (!busy) await put(tx, event, queueStep(previous, { step: next.step, run: event.run, at: now() }));
  const name = eventReadBy(next.group);
  if (!name) throw new Error(`no chain event is read by ${next.group}`);
  await tx.store.addEvent({ event: name, key: event.dataset_id, payload: event });
}

/**
 * A step's end in one transaction: the next step queued with its event, the dataset's load
 * (spec step 7 by itself, LABLD_TRIPLESTORE_AUTOLOAD: convert made the joined graph, so it is
 * loaded as if Load were pressed) and the step's own status. A crash before the commit runs the
 * step again; after it, the redelivery finds the step done and its events kept.
 */
async function finish(
  deps: ChainDeps,
  event: ChainEvent,
  result: StepResult,
  status: StepStatus,
  again = false,
): Promise<void> {
  await deps.store.transaction(async (store) => {
    const tx = { ...deps, store };
    if (result.next) await pass(tx, result.next, again);
    if (result.loadDataset) await announceLoad(store, event.dataset_id);
    await put(tx, event, status);
  });
}

/**
 * Whether the source is gone; if so, what a step wrote for it meanwhile goes too (derived
 * resources, their tables, the status), whichever of this and chain-forget comes last.
 */
export async function forgotten(deps: ChainDeps, sourceId: string): Promise<boolean> {
  if (await deps.store.getResource(sourceId)) return false;
  const gone = await deps.store.deleteDerivedFrom(sourceId);
  await deps.store.deleteStepStatus(sourceId);
  await dropTables(deps, [sourceId, ...gone]);
  return true;
}

/**
 * Progress of a running step, written at most every PROGRESS_EVERY_MS onto the stored status
 * (so that a worker thread can report it too); `flush` waits for the writes, which must end
 * before the step's final status is written.
 */
export function progressWriter(deps: StepDeps, event: ChainEvent, step: ChainStep) {
  let reported = 0;
  let writing = Promise.resolve();
  return {
    report: (progress: Progress) => {
      if (Date.now() - reported < PROGRESS_EVERY_MS) return;
      reported = Date.now();
      writing = writing
        .then(async () => {
          const current = (await deps.store.getStepStatus(event.resource_id, step))?.status;
          if (current?.state !== 'running' || current.run !== event.run) return;
          await put(deps, event, progressStep(current, event.run, progress));
        })
        .catch(() => undefined); // progress is a courtesy: a failed write must not fail the step
    },
    flush: () => writing,
  };
}

/** Whether `event` belongs to the source's current run: the one its first step was queued for. */
async function isCurrent(deps: StepDeps, event: ChainEvent): Promise<boolean> {
  return (await deps.store.getStepStatus(event.resource_id, FIRST_STEP))?.status.run === event.run;
}

/**
 * A step's work failed: recorded on the step (unless the source is gone or replaced) and rethrown
 * for the bus to retry or dead-letter.
 */
async function recordFailure(
  deps: ChainDeps,
  event: ChainEvent,
  status: StepStatus,
  signal: AbortSignal,
  error: unknown,
): Promise<void> {
  // Stopping (the subscription closed): the step stays as it was and comes again after the restart.
  if (signal.aborted) throw error;
  if ((await forgotten(deps, event.resource_id)) || !(await isCurrent(deps, event))) return;
  await put(deps, event, failStep(status, event.run, now(), error));
  throw forTheBus(error);
}

/** Runs one step for `event` with the status bookkeeping described above. */
export async function runStep(
  deps: ChainDeps,
  step: ChainStep,
  event: ChainEvent,
  signal: AbortSignal,
  work: (input: StepWork) => Promise<StepResult>,
  again?: RunAgain,
): Promise<void> {
  const current = (await deps.store.getStepStatus(event.resource_id, step))?.status;
  const source = await deps.store.getResource(event.resource_id);
  // The first step's own status is the one that says which run is current.
  const stale = !current || current.run !== event.run || !source;
  if (stale || (step !== FIRST_STEP && !(await isCurrent(deps, event)))) {
    log.info({ step, resource: event.resource_id, run: event.run }, 'chain: stale event dropped');
    return;
  }
  if (current.state === 'done') {
    // A redelivery (its next event went out before "done") or a replay.
    if (again) await runAgain(deps, current, { event, source, signal }, work, again);
    return;
  }
  const status = startStep(current, event.run, now());
  await put(deps, event, status);
  const progress = progressWriter(deps, event, step);
  let result: StepResult;
  try {
    result = await work({ deps, event, source, signal, onProgress: progress.report });
  } catch (error) {
    await progress.flush();
    await recordFailure(deps, event, status, signal, error);
    return;
  }
  await progress.flush();
  // The source was deleted or replaced while the step ran: its newer run owns the status now.
  if ((await forgotten(deps, event.resource_id)) || !(await isCurrent(deps, event))) return;
  await finish(deps, event, result, finishStep(status, event.run, now(), result.summary, result.ends));
}

/** A done step run again (RunAgain): its new result recorded and passed on only when it changed. */
async function runAgain(
  deps: ChainDeps,
  done: Extract<StepStatus, { state: 'done' }>,
  input: Pick<StepWork, 'event' | 'source' | 'signal'>,
  work: (input: StepWork) => Promise<StepResult>,
  again: RunAgain,
): Promise<void> {
  const { event } = input;
  const startedAt = now();
  const running = startStep(
    queueStep(done, { step: done.step, run: event.run, at: startedAt }),
    event.run,
    startedAt,
  );
  let result: StepResult;
  try {
    result = await work({ deps, ...input, onProgress: () => undefined });
  } catch (error) {
    // E.g. nothing selected and a broken mapping in the library: recorded as a first run's is.
    await recordFailure(deps, event, running, input.signal, error);
    return;
  }
  if (!again.changed(done.summary, result.summary)) return;
  if ((await forgotten(deps, event.resource_id)) || !(await isCurrent(deps, event))) return;
  await finish(deps, event, result, finishStep(running, event.run, now(), result.summary, result.ends), true);
}
