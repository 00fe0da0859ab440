// How a failed step of the event chain records its error: the kind and field for whoever reads
// the chain's state, and whether trying the step again later can help. An upstream that was
// unreachable or slow may answer next time, and so may a request the bus gave up waiting for;
// input that is invalid, missing or refused stays so however often it is tried.
import { DomainError, TimeoutError, type ErrorKind } from '../process/errors.ts';

export interface FailedStep {
  state: 'failed';
  /** The domain error's kind, or `timeout` (no answer in time) or `internal` (a fault of labld). */
  kind: ErrorKind | 'timeout' | 'internal';
  detail: string;
  field?: string;
  retryable: boolean;
}

const RETRYABLE: ReadonlySet<ErrorKind> = new Set(['unreachable', 'upstream-timeout']);

/** The status of a step that failed with `error`. */
export function failedStep(error: unknown): FailedStep {
  if (error instanceof DomainError) {
    const step: FailedStep = {
      state: 'failed',
      kind: error.kind,
      detail: error.detail,
      retryable: RETRYABLE.has(error.kind),
    };
    if (error.field !== undefined) step.field = error.field;
    return step;
  }
  if (error instanceof TimeoutError)
    return { state: 'failed', kind: 'timeout', detail: error.message, retryable: true };
  // The bus has already retried and dead-lettered it; the details are in the log, not the chain.
  return { state: 'failed', kind: 'internal', detail: 'internal error', retryable: false };
}

/**
 * The error a step hands back to the bus. The bus gives a DomainError up at once (a bad input
 * stays bad), and a bug (lib/process/transient.ts), and retries anything else with backoff; a failure that trying again can help (an
 * upstream that was down) is therefore handed on as a plain error carrying it, so that it is
 * retried before it is dead-lettered.
 */
export function forTheBus(error: unknown): unknown {
  if (!(error instanceof DomainError) || !RETRYABLE.has(error.kind)) return error;
  const retry = new Error(error.detail, { cause: error });
  retry.name = `RetryableStepError (${error.kind})`;
  return retry;
}
