// The status of one chain step of one source resource, as users see it on the dataset page and
// through the Action API (issue 14, "Step status users can see"): plain values and pure
// transitions; where they are stored is the catalogue's business.
//
//   queue     (none), queued, done, failed, needs-mapping → queued     (Retry, a replay; any state for a new run)
//   start     queued, running, failed, needs-mapping → running   (running: redelivered after a
//                                                         crash; failed: an automatic retry;
//                                                         needs-mapping: the library changed)
//   progress  running → running
//   finish    running → done, or → needs-mapping     (select-mapping found no mapping: the chain
//                                                         waits for the library, not done)
//   fail      queued, running → failed                 (queued: dead-lettered before it ran)
//
// Every transition names its `run`: the chain run of one version of the source (the consumer
// picks it, e.g. from the upload event). A late message of an older run (a redelivery after
// the CSV was replaced) is refused as stale instead of overwriting the newer run's state.
// The kinds → failure mapping (whether a retry can help) lives beside this, in failed-step.ts.
import { failedStep } from './failed-step.ts';
import { PIPELINE, type ChainStepName } from './pipeline.ts';
import type { RankedMapping } from './select.ts';
import { conflict, type ErrorKind } from '../process/errors.ts';

/** The chain's steps in order (spec steps 2–6, and what labld adds): the pipeline's. */
export const CHAIN_STEPS: readonly ChainStepName[] = PIPELINE.map((s) => s.step);
export type ChainStep = ChainStepName;
/**
 * Spec step 7, loading the dataset into the triple store: a status of the dataset, not of one
 * source, kept beside the others with the dataset's id as its source (lib/chain/load-status.ts).
 */
export const LOAD_STEP = 'load';
/** What a stored status can be of: a chain step of a source, or the dataset's load. */
export type StatusStep = ChainStep | typeof LOAD_STEP;

/** How far a long step has come. */
export interface Progress {
  rows?: number;
  triples?: number;
  bytes?: number;
}

/** What a finished step reports: time taken, and the counts that step has. */
export interface StepSummary extends Progress {
  durationMs: number;
  /** Lines read (the annotator reads the whole file, metadata lines included). */
  lines?: number;
  /** A step-specific word to the user (e.g. which mapping won, or why none did). */
  note?: string;
  /** select-mapping: the top candidates as ranked (plain text; the page escapes it). */
  ranking?: RankedMapping[];
  /** select-mapping: the mapping it chose, convert's input (a Retry of convert sends it again). */
  mapping?: { name: string; url: string; resource_id: string };
  /** load: the sources' rows were loaded too (the Load form then keeps them ticked). */
  withRows?: boolean;
  /** A word the search counts, for a step that declares a facet (pipeline.ts `facet`). */
  outcome?: string;
}

/** A failure in words: what went wrong and what the user can do about it. */
export interface StepFailure {
  kind: ErrorKind | 'timeout' | 'internal';
  detail: string;
  field?: string;
  /** Trying again later may help (an upstream that was down); the bus retries these itself. */
  retryable: boolean;
  /** What to do, in words. */
  action: string;
}

interface Common {
  step: StatusStep;
  run: string;
  /** How many times the step has started in this run (0 while first queued). */
  attempt: number;
  queuedAt: string;
}

export type StepStatus =
  | (Common & { state: 'queued' })
  | (Common & { state: 'running'; startedAt: string; progress?: Progress })
  | (Common & { state: 'done'; startedAt: string; finishedAt: string; summary: StepSummary })
  // A state of its own rather than a flag on `done`: a client that took `done` for success
  // would read "no mapping" as success again (issue 28). It carries done's fields (the
  // ranking, the note), so a reader of the summary reads it as before.
  | (Common & { state: typeof NEEDS_MAPPING; startedAt: string; finishedAt: string; summary: StepSummary })
  | (Common & { state: 'failed'; startedAt?: string; finishedAt: string; failure: StepFailure });

export type StepState = StepStatus['state'];

/** select-mapping ended with no mapping that fits: the source waits for the library (not done). */
export const NEEDS_MAPPING = 'needs-mapping' as const;

/** A state the step rests in until something changes: done, or waiting for a mapping. */
export type EndState = 'done' | typeof NEEDS_MAPPING;

/** Milliseconds since `started` (a `performance.now()`), for a summary. */
export const elapsedMs = (started: number): number => Math.round(performance.now() - started);

const refuse = (status: StepStatus, what: string, why: string) =>
  conflict(`state: the ${status.step} step cannot ${what}: ${why}`, 'state');

function sameRun(status: StepStatus, run: string, what: string): void {
  if (status.run !== run) {
    throw refuse(
      status,
      what,
      `it belongs to run ${JSON.stringify(run)}, the step is now at run ${JSON.stringify(status.run)} (stale)`,
    );
  }
}

/** Queue the step for `run`: a first upload, a new version of the source, Retry, or a replay. */
export function queueStep(
  previous: StepStatus | undefined,
  next: { step: StatusStep; run: string; at: string },
): StepStatus {
  if (previous?.state === 'running' && previous.run === next.run) {
    throw refuse(previous, 'be queued again', 'it is running');
  }
  const attempt = previous && previous.run === next.run ? previous.attempt : 0;
  return { step: next.step, run: next.run, attempt, queuedAt: next.at, state: 'queued' };
}

/**
 * A consumer starts the step. Besides `queued`: `running` (the message came again after the
 * consumer died mid-step) and `failed` (an automatic retry). `done` is refused, so that an
 * at-least-once redelivery of a finished step is recognised and not run twice.
 */
export function startStep(status: StepStatus, run: string, at: string): StepStatus {
  sameRun(status, run, 'start');
  if (status.state === 'done') throw refuse(status, 'start', 'it is done already');
  const { step, queuedAt, attempt } = status;
  return { step, run, queuedAt, attempt: attempt + 1, state: 'running', startedAt: at };
}

export function progressStep(status: StepStatus, run: string, progress: Progress): StepStatus {
  sameRun(status, run, 'report progress');
  if (status.state !== 'running') throw refuse(status, 'report progress', `it is ${status.state}`);
  return { ...status, progress: { ...status.progress, ...progress } };
}

/** The step ended: `done`, or (select-mapping) `needs-mapping` when no mapping fits. */
export function finishStep(
  status: StepStatus,
  run: string,
  at: string,
  summary: StepSummary,
  state: EndState = 'done',
): StepStatus {
  sameRun(status, run, 'finish');
  if (status.state !== 'running') throw refuse(status, 'finish', `it is ${status.state}`);
  const { step, queuedAt, attempt, startedAt } = status;
  return { step, run, queuedAt, attempt, startedAt, state, finishedAt: at, summary };
}

/** The step failed with `error` (a queued step too: its message was dead-lettered before it ran). */
export function failStep(status: StepStatus, run: string, at: string, error: unknown): StepStatus {
  sameRun(status, run, 'fail');
  if (status.state !== 'running' && status.state !== 'queued') {
    throw refuse(status, 'fail', `it is ${status.state}`);
  }
  const { step, queuedAt, attempt } = status;
  const failed: StepStatus = {
    step,
    run,
    queuedAt,
    attempt,
    state: 'failed',
    finishedAt: at,
    failure: stepFailure(step, error),
  };
  if (status.state === 'running') failed.startedAt = status.startedAt;
  return failed;
}

const FIX_MAPPING = 'correct the mapping in the group mappings (the detail names it), then press Retry';
const FIX_SHAPES =
  'correct the shapes file beside the mapping (<mapping name>-shapes.ttl) in the group mappings, or remove it, then press Retry';

// The file was annotated, but a cell does not read as its column's type says (the import's refusal).
const FIX_CELL =
  "a cell does not fit its column as the descriptor describes it (the detail names the line and column): check that column's format in the descriptor (its datatype, decimalChar, groupChar), or upload a corrected file, then press Retry";

/** What the user can do, by the kind of failure and the step. */
function actionFor(step: StatusStep, failure: Omit<StepFailure, 'action'>): string {
  if (step === LOAD_STEP) return loadActionFor(failure.kind);
  switch (failure.kind) {
    case 'invalid':
    case 'malformed':
    case 'unsupported':
      if (step === 'select-mapping' || step === 'convert') return FIX_MAPPING;
      if (step === 'validate') return FIX_SHAPES;
      if (step === 'import' && failure.field === 'csv_url') return FIX_CELL;
      return 'the file cannot be read as a table: check that it is a delimited text file (CSV, TSV) and upload a corrected version';
    case 'too-large':
      return 'the file is past the limit the detail names: raise that variable or split the file, then press Retry';
    case 'not-found':
      return 'a file the step reads is gone (deleted or replaced meanwhile): upload the file again';
    case 'forbidden':
    case 'unauthorized':
      return 'an address the step needed was refused: allow it in LABLD_FETCH_ALLOW or put the file into the catalogue, then press Retry';
    case 'conflict':
      return 'the dataset changed while the step ran: press Retry';
    case 'unreachable':
    case 'upstream-timeout':
    case 'timeout':
      return 'a service or file did not answer; the step is retried by itself, and Retry runs it again once it is back';
    default:
      return 'an error inside labld (its log has the details): press Retry, and report it if it fails again';
  }
}

function loadActionFor(kind: StepFailure['kind']): string {
  switch (kind) {
    case 'invalid':
    case 'malformed':
    case 'unsupported':
      return 'a graph of the dataset is not valid RDF (the detail names it): correct or delete that resource, then press Load';
    case 'too-large':
      return 'the rows are past the limit the detail names: press Load without the rows, or raise that limit';
    case 'unreachable':
    case 'upstream-timeout':
    case 'timeout':
      return 'the triple store did not answer; the load is retried by itself, and Load runs it again once it is back';
    default:
      return 'press Load again; if it fails again, the log of labld has the details';
  }
}

/** A step's failure in words, from what it threw (lib/chain/failed-step.ts maps the kinds). */
export function stepFailure(step: StatusStep, error: unknown): StepFailure {
  const { state: _state, ...failed } = failedStep(error);
  return { ...failed, action: actionFor(step, failed) };
}
