// Errors that carry an HTTP meaning. Domain code throws them; gateways turn them into
// `{"detail": …}` with the status; the bus sends them back as error replies without retrying
// (a bad request stays bad however often it is tried).

export class ClientError extends Error {
  readonly status: number;
  readonly field: string | undefined;

  constructor(status: number, detail: string, field?: string) {
    super(detail);
    this.name = 'ClientError';
    this.status = status;
    this.field = field;
  }
}

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

export function isClientError(error: unknown): error is ClientError {
  return error instanceof ClientError;
}
