// The one way labld fetches a client-given URL (data_url, template_url, mapping_url,
// shapes_url, rdf_url, metadata_url): http(s) only, time and size limits, redirects followed
// by hand and re-checked, and no connection to private or loopback addresses unless allowed.
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import { request, type Agent } from 'undici';
import { DomainError, type ErrorKind } from '../process/errors.ts';
import { normalHost } from './address-policy.ts';
import { addressRefusal, guardedAgent } from './connector.ts';
import {
  AddressRefusedError,
  ConnectTimeoutError,
  KIND,
  TooLargeError,
  UpstreamError,
  errorCode,
  findCause,
  redactUrl,
} from './errors.ts';
import { decode, limitedBody, readAll } from './limited-body.ts';
import { policyFromEnv, type FetchPolicy } from './policy.ts';

export { redactUrl, KIND, UpstreamError } from './errors.ts';
export { makePolicy, policyFromEnv, systemResolver } from './policy.ts';
export type { FetchPolicy, PolicyOverrides, ResolvedAddress, Resolver } from './policy.ts';
export { parseAllowList, type AllowList } from './address-policy.ts';

export interface GuardedFetchOptions {
  /** The request field the URL came from; every error names it. */
  field: string;
  /** Defaults to policyFromEnv(process.env). */
  policy?: FetchPolicy;
  /** Accept header; default any type. */
  accept?: string;
  /** Authorization header to send (the original services forwarded the caller's). */
  authorization?: string;
  /** Cancels the fetch; its reason is thrown as is (not a DomainError). */
  signal?: AbortSignal;
  /** Default GET. A request with a body follows no redirect (the body cannot be sent twice). */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: string | Readable;
  /** Content-Type of `body`. */
  contentType?: string;
  /** Revalidating a cached copy (lib/fetch/cached-fetch.ts): a 304 is then an answer, not an error. */
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

export interface FetchedResource {
  /** 2xx, or 304 to a conditional request (with an empty body): anything else is an error. */
  status: number;
  /** The URL finally answered, after redirects, without credentials. */
  url: string;
  contentType: string | undefined;
  /** From Content-Length, when the upstream sent one. */
  contentLength: number | undefined;
  headers: Headers;
  /** The body, size-limited and time-limited while it streams. Read it once: here or below. */
  body: Readable;
  bytes(): Promise<Buffer>;
  text(): Promise<string>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A URL ready to request: credentials moved out of it into an Authorization header. */
interface Target {
  url: URL;
  shown: string;
  authorization: string | undefined;
}

/** State of one fetch: its limits, timer and connection pool, and how to word its errors. */
class Session {
  readonly field: string;
  readonly shown: string;
  readonly controller = new AbortController();
  readonly agent: Agent;
  timedOut = false;
  redirectedTo: string | undefined;
  body: Readable | undefined;
  private timer: NodeJS.Timeout | undefined;
  // The total limit counts the upstream's time only: a reader that applies backpressure (a
  // loaded worker writing 100,000 rows) must not turn a fast server into a 504.
  private readonly started = performance.now();
  private readerWaitMs = 0;
  private readerBehindSince: number | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly timeoutMs: number;
  private readonly connectTimeoutMs: number;
  private closed = false;

  private readonly ownsAgent: boolean;

  constructor(
    field: string,
    shown: string,
    policy: FetchPolicy,
    signal: AbortSignal | undefined,
    ownsAgent: boolean,
  ) {
    this.ownsAgent = ownsAgent;
    this.field = field;
    this.shown = shown;
    this.signal = signal;
    this.timeoutMs = policy.timeoutMs;
    this.connectTimeoutMs = policy.connectTimeoutMs;
    this.agent = guardedAgent(policy);
    signal?.addEventListener('abort', this.onCallerAbort, { once: true });
    if (policy.timeoutMs > 0) this.timer = setTimeout(this.onTimeout, policy.timeoutMs);
  }

  private readonly onCallerAbort = (): void => {
    this.controller.abort(this.signal?.reason);
    this.body?.destroy(this.signal?.reason instanceof Error ? this.signal.reason : undefined);
  };

  readerBehind(): void {
    this.readerBehindSince ??= performance.now();
  }

  readerCaughtUp(): void {
    if (this.readerBehindSince === undefined) return;
    this.readerWaitMs += performance.now() - this.readerBehindSince;
    this.readerBehindSince = undefined;
  }

  private readonly onTimeout = (): void => {
    const now = performance.now();
    const readerWait = this.readerWaitMs + (now - (this.readerBehindSince ?? now));
    const upstreamMs = now - this.started - readerWait;
    // A reader stalled for a whole limit has stopped: the connection is not held for it.
    const readerStopped = now - (this.readerBehindSince ?? now) >= this.timeoutMs;
    if (upstreamMs < this.timeoutMs && !readerStopped) {
      this.timer = setTimeout(this.onTimeout, Math.max(1, this.timeoutMs - upstreamMs));
      return;
    }
    this.timedOut = true;
    this.controller.abort();
    this.body?.destroy(this.fail(new Error('timeout')));
  };

  /** "<field>: <url> <verb>: <rule>", mentioning the redirect target when there was one. */
  detail(verb: string, rule: string): string {
    const via = this.redirectedTo === undefined ? '' : `redirected to ${this.redirectedTo}, `;
    return `${this.field}: ${this.shown} ${verb}: ${via}${rule}`;
  }

  refuse(kind: ErrorKind, rule: string): DomainError {
    return new DomainError(kind, this.detail('refused', rule), this.field);
  }

  /** Any failure as the caller should see it: a DomainError, or the caller's own abort. */
  fail(error: unknown): Error {
    if (error instanceof DomainError) return error;
    if (this.signal?.aborted && !this.timedOut) {
      const reason: unknown = this.signal.reason;
      return reason instanceof Error ? reason : new Error('aborted');
    }
    if (this.timedOut) {
      const rule = `no complete answer within ${this.timeoutMs} ms (LABLD_FETCH_TIMEOUT_MS)`;
      return new DomainError(KIND.timeout, this.detail('timed out', rule), this.field);
    }
    const refused = findCause(error, AddressRefusedError);
    if (refused) {
      const { address, reason, hint } = refused.refusal;
      return this.refuse(KIND.address, `address ${address} is ${reason} (${hint})`);
    }
    const tooLarge = findCause(error, TooLargeError);
    if (tooLarge) return this.refuse(KIND.tooLarge, tooLarge.message);
    const code = errorCode(error);
    if (findCause(error, ConnectTimeoutError) || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return new DomainError(
        KIND.timeout,
        this.detail(
          'timed out',
          `could not connect within ${this.connectTimeoutMs} ms (LABLD_FETCH_CONNECT_TIMEOUT_MS)`,
        ),
        this.field,
      );
    }
    return this.unusable(describeFailure(code));
  }

  unusable(rule: string): DomainError {
    return new DomainError(KIND.upstream, this.detail('could not be fetched', rule), this.field);
  }

  /** Stops the timer; safe to call more than once. A shared policy's pooled connections stay open. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onCallerAbort);
    if (this.ownsAgent) this.agent.destroy().catch(() => {});
  }
}

function describeFailure(code: string | undefined): string {
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return 'host not found';
    case 'ECONNREFUSED':
      return 'connection refused';
    case undefined:
      return 'connection failed';
    default:
      return `connection failed (${code})`;
  }
}

/** Parses a URL (relative to `base` for redirects) and applies the scheme rule. */
function target(raw: string, base: URL | undefined, refuse: (rule: string) => DomainError): Target {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw refuse('not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refuse(`scheme ${url.protocol} is not allowed (only http and https)`);
  }
  const shown = redactUrl(url.href);
  let authorization: string | undefined;
  if (url.username !== '' || url.password !== '') {
    // Userinfo becomes Basic auth (as the original's HTTP client did) and leaves the URL, so
    // no error, log line or undici message can carry it.
    const user = safeDecode(url.username);
    const password = safeDecode(url.password);
    authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  return { url, shown, authorization };
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      try {
        headers.append(name, v);
      } catch {
        // A header the WHATWG class refuses is dropped rather than failing the fetch.
      }
    }
  }
  return headers;
}

/** Drops a body we will not read; undici reports that as an error nobody needs to hear. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Fetches a client-given URL under the policy. Resolves once the headers are in, with a
 * 2xx answer whose body is still to be read; rejects with a DomainError for every refusal
 * or upstream failure (or with `signal`'s reason when the caller aborts).
 */
export async function guardedFetch(url: string, options: GuardedFetchOptions): Promise<FetchedResource> {
  const { field } = options;
  const shown = redactUrl(String(url));
  // Something that is not a URL is quoted, so an empty or odd string still reads clearly.
  const named = URL.canParse(String(url)) ? shown : JSON.stringify(shown);
  options.signal?.throwIfAborted();
  let hop = target(
    String(url),
    undefined,
    (rule) => new DomainError(KIND.badUrl, `${field}: ${named} refused: ${rule}`, field),
  );
  const policy = options.policy ?? policyFromEnv();
  if (policy.offline) {
    const rule =
      'labld is offline (LABLD_FETCH_OFFLINE); store the document in this catalogue and give its URL';
    throw new DomainError(KIND.upstream, `${field}: ${named} could not be fetched: ${rule}`, field);
  }
  // A one-off policy's pool would outlive its only fetch: that session closes it.
  const session = new Session(field, shown, policy, options.signal, options.policy === undefined);
  let authorization = options.authorization ?? hop.authorization;
  try {
    for (let redirects = 0; ; redirects++) {
      checkLiteral(policy, hop.url);
      const response = await request(hop.url, {
        method: options.method ?? 'GET',
        dispatcher: session.agent,
        signal: session.controller.signal,
        ...(options.body === undefined ? {} : { body: options.body }),
        headers: {
          accept: options.accept ?? '*/*',
          ...(options.contentType === undefined ? {} : { 'content-type': options.contentType }),
          // Sizes are counted on the wire; a compressed body could expand past the limit.
          'accept-encoding': 'identity',
          'user-agent': 'labld',
          ...(authorization === undefined ? {} : { authorization }),
          ...(options.ifNoneMatch === undefined ? {} : { 'if-none-match': options.ifNoneMatch }),
          ...(options.ifModifiedSince === undefined ? {} : { 'if-modified-since': options.ifModifiedSince }),
        },
      });
      const { statusCode, headers } = response;
      const location = single(headers.location);
      if (REDIRECTS.has(statusCode) && location !== undefined) {
        discard(response.body);
        if (options.body !== undefined)
          throw session.unusable('redirected, and a request with a body follows no redirect');
        if (redirects >= policy.maxRedirects) {
          throw session.unusable(`more than ${policy.maxRedirects} redirects (LABLD_FETCH_MAX_REDIRECTS)`);
        }
        const from = hop.url;
        const next = target(location, from, (rule) => {
          session.redirectedTo = redactUrl(
            URL.canParse(location, from.href) ? new URL(location, from).href : location,
          );
          return session.refuse(KIND.badUrl, rule);
        });
        session.redirectedTo = next.shown;
        // Credentials go only to the origin they were given for, as browsers do.
        if (next.url.origin !== hop.url.origin) authorization = undefined;
        authorization = next.authorization ?? authorization;
        hop = next;
        continue;
      }
      const revalidated =
        statusCode === 304 && (options.ifNoneMatch !== undefined || options.ifModifiedSince !== undefined);
      if (revalidated) discard(response.body);
      if (!revalidated && (statusCode < 200 || statusCode > 299)) {
        discard(response.body);
        const text = response.statusText ? ` ${response.statusText}` : '';
        const detail = session.detail('could not be fetched', `upstream answered ${statusCode}${text}`);
        throw new UpstreamError(detail, field, statusCode);
      }
      const declared = single(headers['content-length']);
      const contentLength = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined;
      if (!revalidated && contentLength !== undefined && contentLength > policy.maxBytes) {
        discard(response.body);
        throw new TooLargeError(policy.maxBytes, contentLength);
      }
      const body = revalidated ? Readable.from([]) : response.body;
      return resource(session, policy, hop, statusCode, headers, body, contentLength);
    }
  } catch (error) {
    session.close();
    throw session.fail(error);
  }
}

/** IP literals never reach DNS, so they are judged before any connection is tried. */
function checkLiteral(policy: FetchPolicy, url: URL): void {
  const host = normalHost(url.hostname);
  if (isIP(host) === 0) return;
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const refused = addressRefusal(policy, { host, port }, host);
  if (refused) throw new AddressRefusedError(refused);
}

function resource(
  session: Session,
  policy: FetchPolicy,
  hop: Target,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  source: Readable,
  contentLength: number | undefined,
): FetchedResource {
  const body = limitedBody(source, {
    maxBytes: policy.maxBytes,
    mapError: (error) => session.fail(error),
    onClose: () => session.close(),
    onReaderBehind: () => session.readerBehind(),
    onReaderCaughtUp: () => session.readerCaughtUp(),
  });
  session.body = body;
  const contentType = single(headers['content-type']);
  return {
    status,
    url: hop.url.href,
    contentType,
    contentLength,
    headers: toHeaders(headers),
    body,
    bytes: () => readAll(body),
    text: async () => decode(await readAll(body), contentType),
  };
}
