// The one table from an error's kind to the HTTP status the services answer with. Read by the
// edges only — the gateways' `{"detail"}` answers and the converter's test report, which quotes
// a status as the original did — never by domain code. Here, not in gateways/kit, so that a
// consumer reading it does not import from gateways.
import type { DomainError, ErrorKind } from './errors.ts';

export const HTTP_STATUS = {
  malformed: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  'slow-client': 408,
  conflict: 409,
  'too-large': 413,
  unsupported: 415,
  'not-acceptable': 406,
  invalid: 422,
  // An upstream that answered with an error or not at all: the request named it, so the request
  // cannot be served as it is (the upstream's own status would read as ours).
  unreachable: 422,
  // The upstream, not the client, was slow (408 would tell the client to resend).
  'upstream-timeout': 504,
  // A fault of labld that this input sets off every time: trying again cannot help.
  crashed: 500,
} as const satisfies Record<ErrorKind, number>;

export function statusOf(kind: ErrorKind): number {
  return HTTP_STATUS[kind];
}

/** `422: mapping_url: …`: how the converter's test report words bad input (as the original did). */
export function statusLine(error: DomainError): string {
  return `${statusOf(error.kind)}: ${error.message}`;
}
