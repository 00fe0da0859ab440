// Errors of the domain, by kind. Domain code says what went wrong (the input is invalid, a
// file is not found, an upstream is unreachable, …) and which field it concerns; only the edges
// turn a kind into an answer: gateways/kit/errors.ts a status and `{"detail": …}`,
// gateways/kit/ckan-errors.ts a CKAN Action API error, lib/chain/failed-step.ts a chain step's
// status. The bus sends them back as error replies without retrying (a bad request stays bad
// however often it is tried).

/** Every kind a domain error can have; the edges map each of them. */
export const ERROR_KINDS = [
  'malformed', // the request cannot be read at all: not JSON, not a URL, broken off
  'unauthorized', // credentials are missing or wrong
  'forbidden', // allowed to no one: an address the fetch policy refuses
  'not-found', // what the request names does not exist
  'slow-client', // the client stopped sending its request
  'conflict', // the request contradicts the current state
  'too-large', // past a size limit
  'unsupported', // a media type, encoding or charset labld does not read
  'not-acceptable', // no answer in a media type the client accepts
  'invalid', // readable, but wrong: a field's value, a mapping, a document
  'unreachable', // an upstream gave nothing usable
  'upstream-timeout', // an upstream did not answer in time
  'crashed', // the input stopped the thread running it, twice: a fault of labld, not worth a retry
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export class DomainError extends Error {
  readonly kind: ErrorKind;
  readonly field: string | undefined;

  constructor(kind: ErrorKind, detail: string, field?: string) {
    super(detail);
    this.name = 'DomainError';
    this.kind = kind;
    this.field = field;
  }

  /** The message as a client reads it: a field it does not mention yet is put in front. */
  get detail(): string {
    return this.field && !this.message.includes(this.field) ? `${this.field}: ${this.message}` : this.message;
  }
}

/** A cause's message inside a message that names the field already: without its own `field: `. */
export function causeOf(error: unknown, field: string): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
}

/** A constructor of errors of one kind: `invalid('x: must be a number', 'x')`. */
const of =
  (kind: ErrorKind) =>
  (detail: string, field?: string): DomainError =>
    new DomainError(kind, detail, field);

export const malformed = of('malformed');
export const unauthorized = of('unauthorized');
export const forbidden = of('forbidden');
export const notFound = of('not-found');
export const slowClient = of('slow-client');
export const conflict = of('conflict');
export const tooLarge = of('too-large');
export const unsupported = of('unsupported');
export const notAcceptable = of('not-acceptable');
export const invalid = of('invalid');
export const unreachable = of('unreachable');
export const upstreamTimeout = of('upstream-timeout');
export const crashed = of('crashed');

export function isErrorKind(value: unknown): value is ErrorKind {
  return (ERROR_KINDS as readonly unknown[]).includes(value);
}

/** The requester stopped waiting (a bus request's deadline); not the client's fault. */
export class TimeoutError extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'TimeoutError';
  }
}

/** V8's refusal to make a string past about 2^29 characters (outputs turn it into a 413). */
export function isStringLengthError(error: unknown): boolean {
  return error instanceof RangeError && /invalid string length/i.test(error.message);
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
