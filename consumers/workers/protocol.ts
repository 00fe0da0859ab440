// What the main thread and an operation worker say to each other, and how errors cross the
// thread boundary: structured clone keeps only plain data, so an error travels as its kind (a
// domain error's kind and field, timeout or internal) and is rebuilt on the main thread as the
// bus expects it.
import { DomainError, TimeoutError, invalid, type ErrorKind } from '../../lib/process/errors.ts';
import { DeterministicFault, isDeterministic } from '../../lib/process/transient.ts';
import type { CacheCall } from './document-cache.ts';
import type { Credential } from '../../lib/catalogue/auth/actor.ts';

/** A consumer group whose operations a worker runs (consumers/workers/operations.ts finds them by its name). */
export interface OperationsSource {
  group: string;
  /** A module of its own that exports `operationsFor(group, env)` (test fixtures); else the group's. */
  module?: string;
}

export interface WorkerData {
  sources: OperationsSource[];
  dataDir: string;
  /**
   * Load every source's operations before `ready` (a warm worker); otherwise each group's module
   * is loaded by its first request, so a worker started for one request holds only its module.
   */
  preload: boolean;
  /**
   * Heap growth since the last collection (in bytes) past which a job's garbage is collected
   * before the next job: a fraction of the pool's memory limit (worker.ts).
   */
  collectAbove: number;
}

export interface RunJob {
  type: 'run';
  id: number;
  group: string;
  operation: string;
  /** The request's fields as they came off the bus (possibly a claim on stored JSON). */
  input: unknown;
  correlationId: string | undefined;
  requestId?: string | undefined;
  credential?: Credential | undefined;
}

/** Asks an idle worker to close what it opened and end. */
export interface CloseWorker {
  type: 'close';
}

export type WireError =
  | { kind: ErrorKind; detail: string; field?: string | undefined }
  | { kind: 'timeout'; detail: string }
  /**
   * `summary` is name and message for the dead-letter record; the client sees a generic 500.
   * `deterministic`: the same input fails again (a TypeError, …), so the bus does not retry it.
   */
  | { kind: 'internal'; summary: string; deterministic: boolean };

export type FromWorker =
  | { type: 'ready' }
  /** After a job's answer: its garbage is collected (when it left much), the worker takes the next one. */
  | { type: 'idle' }
  | CacheCall
  | { type: 'done'; id: number; ok: true; value: unknown }
  | { type: 'done'; id: number; ok: false; error: WireError };

const STACK_OVERFLOW = 'Maximum call stack size exceeded';
/** Input nested deeper than this is the likely culprit when the stack runs out. */
const SUSPECT_DEPTH = 1000;

/** The stack ran out somewhere in `error` (itself, a wrapped cause, or a message that quotes it). */
export function isStackOverflow(error: unknown): boolean {
  let current: unknown = error;
  for (let hops = 0; current instanceof Error && hops < 8; hops += 1) {
    if (current.message.includes(STACK_OVERFLOW)) return true;
    current = current.cause;
  }
  return false;
}

/** Levels of nesting of a JSON-like value, counted without recursion (it may be very deep). */
export function nestingDepth(value: unknown, stopAt = Infinity): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest >= stopAt) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** The input field nested deep enough to have exhausted the stack, if one is. */
function deepField(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  for (const [field, value] of Object.entries(input)) {
    if (nestingDepth(value, SUSPECT_DEPTH) >= SUSPECT_DEPTH) return field;
  }
  return undefined;
}

/** "Maximum call stack size exceeded" in words: an invalid error naming the field when known. */
export function tooDeep(error: unknown, input: unknown): DomainError {
  const field = (error instanceof DomainError ? error.field : undefined) ?? deepField(input);
  const what = field
    ? `${field}: nested too deeply to process`
    : 'the request or a document it names is nested too deeply to process';
  return invalid(`${what} (more levels than labld can follow); flatten the structure`, field);
}

/** An error as it crosses to the main thread; `input` helps name the field of a stack overflow. */
export function toWire(error: unknown, input: unknown): WireError {
  if (isStackOverflow(error)) error = tooDeep(error, input);
  if (error instanceof DomainError) {
    return { kind: error.kind, detail: error.message, field: error.field };
  }
  if (error instanceof TimeoutError) return { kind: 'timeout', detail: error.message };
  return {
    kind: 'internal',
    summary: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    deterministic: isDeterministic(error),
  };
}

/** The error as the bus and the gateways know it. */
export function fromWire(wire: WireError): Error {
  if (wire.kind === 'timeout') return new TimeoutError(wire.detail);
  if (wire.kind === 'internal')
    return wire.deterministic ? new DeterministicFault(wire.summary) : new Error(wire.summary);
  return new DomainError(wire.kind, wire.detail, wire.field);
}
