// Whether trying again can help. A transient failure (a connection refused or reset, a timeout, a
// busy or locked database, a serialization conflict, a Kafka error the client calls retriable)
// may pass on the next attempt; a deterministic one (a bug such as a TypeError, a statement the
// database refuses as wrong, a constraint violated) fails the same way on the same input, so the
// bus answers or dead-letters it at once instead of retrying it with backoff. Errors of neither
// sort are retried, as before: a retry too many costs seconds, a lost retry a manual replay.

/** Node and undici error codes of a connection or a wait that did not work out this time. */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EBUSY',
  'EMFILE',
  'ENFILE',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/**
 * PostgreSQL SQLSTATEs: connection exceptions (08), serialization failure and deadlock (40001,
 * 40P01), the server shutting down or starting (57P01–57P03), out of resources (53).
 */
const TRANSIENT_SQLSTATE = /^(08...|40001|40P01|57P0[123]|53...)$/;
/** Data exceptions (22), integrity constraints (23), syntax or access rule (42), unsupported (0A). */
const DETERMINISTIC_SQLSTATE = /^(22|23|42|0A)...$/;

/** SQLite primary result codes (node:sqlite's `errcode`, low byte): BUSY 5 and LOCKED 6 pass. */
const SQLITE_TRANSIENT = new Set([5, 6]);
/** ERROR 1 (syntax, too many columns, no such table), TOOBIG 18, CONSTRAINT 19, MISMATCH 20, RANGE 25. */
const SQLITE_DETERMINISTIC = new Set([1, 18, 19, 20, 25]);

/** Faults of the code itself: the same input sets them off again. */
const PROGRAMMING_ERRORS = new Set([
  'TypeError',
  'ReferenceError',
  'SyntaxError',
  'RangeError',
  'EvalError',
  'URIError',
  'CompileError', // WebAssembly
  'LinkError',
  'RuntimeError', // WebAssembly: "memory access out of bounds", "unreachable"
]);

/** A RangeError from memory pressure, which another attempt (or another moment) may not meet. */
const MEMORY_PRESSURE = /allocation failed|out of memory/i;

/**
 * A failure that the same input sets off again, rebuilt on one side of a boundary (a worker
 * thread, a process) from the other's verdict.
 */
export class DeterministicFault extends Error {
  constructor(summary: string) {
    super(summary);
    this.name = 'DeterministicFault';
  }
}

type Verdict = 'transient' | 'deterministic' | 'unknown';

function verdictOf(error: Error): Verdict {
  const e = error as Error & { code?: unknown; errcode?: unknown; retriable?: unknown };
  if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return 'transient';
  if (typeof e.code === 'string' && TRANSIENT_SQLSTATE.test(e.code)) return 'transient';
  if (typeof e.code === 'string' && DETERMINISTIC_SQLSTATE.test(e.code)) return 'deterministic';
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const primary = e.errcode & 0xff;
    if (SQLITE_TRANSIENT.has(primary)) return 'transient';
    if (SQLITE_DETERMINISTIC.has(primary)) return 'deterministic';
  }
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'transient';
  if (typeof e.retriable === 'boolean' && e.name.startsWith('KafkaJS'))
    return e.retriable ? 'transient' : 'deterministic';
  if (error instanceof DeterministicFault) return 'deterministic';
  if (PROGRAMMING_ERRORS.has(e.name) && !MEMORY_PRESSURE.test(e.message)) return 'deterministic';
  return 'unknown';
}

/**
 * Whether `error` would fail the same way again. Its causes are read too, and a transient one
 * anywhere wins: fetch's `TypeError: fetch failed` caused by ECONNRESET is worth a retry.
 */
export function isDeterministic(error: unknown): boolean {
  let deterministic = false;
  let current: unknown = error;
  for (let hops = 0; current instanceof Error && hops < 8; hops += 1) {
    const verdict = verdictOf(current);
    if (verdict === 'transient') return false;
    if (verdict === 'deterministic') deterministic = true;
    current = current.cause;
  }
  return deterministic;
}
