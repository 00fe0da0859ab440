// What the guarded fetch reports, and of which kind. Every failure a client can cause is a
// DomainError whose detail reads "<field>: <url> <verb>: <rule>", with credentials removed.
//
// Kind choices (kept the same wherever the rule fires, first request or redirect; the statuses
// the services answer with are in gateways/kit/errors.ts):
//   malformed         the URL itself: not a URL, or a scheme other than http/https (400)
//   forbidden         the address policy: loopback, private, link-local, metadata, …
//                     (LABLD_FETCH_ALLOW) (403)
//   too-large         the body is larger than LABLD_FETCH_MAX_BYTES (by Content-Length or while
//                     streaming) (413)
//   unreachable       the URL is allowed but gave nothing usable: upstream non-2xx, too many
//                     redirects, host not found, connection refused or broken (422). The original
//                     services passed the upstream status through ("cant get file at <url>"); that
//                     makes an upstream 401/404/500 look like our own answer, so the upstream
//                     status is kept in the detail and on UpstreamError.upstreamStatus for any
//                     caller that must mirror it.
//   upstream-timeout  a time limit: LABLD_FETCH_CONNECT_TIMEOUT_MS or LABLD_FETCH_TIMEOUT_MS (the
//                     upstream, not the client, was slow) (504)
import { DomainError, type ErrorKind } from '../process/errors.ts';
import type { Refusal } from './address-policy.ts';

export const KIND = {
  badUrl: 'malformed',
  address: 'forbidden',
  tooLarge: 'too-large',
  upstream: 'unreachable',
  timeout: 'upstream-timeout',
} as const satisfies Record<string, ErrorKind>;

const MAX_SHOWN = 300;

/** The URL as it may be shown in errors and logs: no user name or password, bounded length. */
export function redactUrl(input: string): string {
  let shown: string;
  try {
    const url = new URL(input);
    const hadCredentials = url.username !== '' || url.password !== '';
    url.username = '';
    url.password = '';
    shown = hadCredentials ? url.href.replace('//', '//***@') : url.href;
  } catch {
    // Not a URL: still strip anything that looks like userinfo.
    shown = input.replace(/\/\/[^/?#]*@/g, '//***@');
  }
  return shown.length > MAX_SHOWN ? `${shown.slice(0, MAX_SHOWN)}…` : shown;
}

/** An upstream answer that was not 2xx; the status the upstream gave is kept for callers. */
export class UpstreamError extends DomainError {
  readonly upstreamStatus: number;

  constructor(detail: string, field: string, upstreamStatus: number) {
    super(KIND.upstream, detail, field);
    this.name = 'UpstreamError';
    this.upstreamStatus = upstreamStatus;
  }
}

/** Raised inside the connector; turned into a forbidden DomainError with the URL in context. */
export class AddressRefusedError extends Error {
  readonly refusal: Refusal;

  constructor(refusal: Refusal) {
    super(`address ${refusal.address} is ${refusal.reason}`);
    this.name = 'AddressRefusedError';
    this.refusal = refusal;
  }
}

/** Raised inside the connector when name resolution alone uses up the connect time limit. */
export class ConnectTimeoutError extends Error {
  constructor() {
    super('connect timeout');
    this.name = 'ConnectTimeoutError';
  }
}

/** Raised by the body stream when it passes the size limit; carries no URL (added later). */
export class TooLargeError extends Error {
  constructor(limit: number, declared?: number) {
    super(
      declared === undefined
        ? `body is larger than the limit of ${limit} bytes (LABLD_FETCH_MAX_BYTES)`
        : `body of ${declared} bytes is larger than the limit of ${limit} bytes (LABLD_FETCH_MAX_BYTES)`,
    );
    this.name = 'TooLargeError';
  }
}

/** Error codes from Node and undici, looked up through `cause` chains. */
export function errorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Finds an error of the given class in a `cause` chain (undici may wrap connector errors). */
export function findCause<T extends Error>(
  error: unknown,
  type: abstract new (...args: never[]) => T,
): T | undefined {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if (e instanceof type) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
