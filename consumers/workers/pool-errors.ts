// How the worker pool words what became of a request it could not run to its end.
import type { DomainError } from '../../lib/process/errors.ts';
import { TimeoutError, crashed, tooLarge } from '../../lib/process/errors.ts';

export function outOfMemory(memoryMb: number): DomainError {
  return tooLarge(
    `the request needs more memory than an operation may use (${memoryMb} MB, LABLD_WORKER_MEMORY_MB)`,
  );
}

/** The worker died under the request `times` times: the input sets it off, trying again cannot help. */
export function crashedOn(operation: string, times: number, cause: string): DomainError {
  return crashed(
    `the ${operation} operation stopped its worker thread ${times} times on this input, so it is not tried again: ${cause} (a fault of labld; please report it with the request)`,
  );
}

export function overDeadline(): TimeoutError {
  return new TimeoutError(
    'the request ran past its deadline (LABLD_REQUEST_TIMEOUT_MS); its work was stopped',
  );
}

export function pastDeadline(): TimeoutError {
  return new TimeoutError('the request reached its consumer after its deadline; it was not run');
}

export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the request was abandoned');
}
