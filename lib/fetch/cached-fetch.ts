// Fetched documents (templates, mappings, shapes) kept in the shared document cache, so that 100
// conversions against one template fetch it once. A copy is used as is while fresh (the
// origin's `Cache-Control: max-age`, else LABLD_FETCH_CACHE_FRESH_S), then revalidated with
// If-None-Match / If-Modified-Since: a 304 makes it fresh again, a 200 replaces it. When the
// origin cannot be reached (no connection, a time limit, a 5xx), a stale copy still answers for
// LABLD_FETCH_CACHE_STALE_S past its freshness (RFC 5861's stale-if-error), so a lab that loses
// its internet link keeps converting with the templates it had; a 404 or a refusal never does.
//
// The cache never lets a request past the guard. Every fetch and revalidation is the guarded
// fetch; a copy is kept only under a key that holds everything the guard judged it by (the URL
// as given, the credentials sent, the policy's allow list and limits), so a process with another
// LABLD_FETCH_ALLOW, or a caller without the credentials, never shares it.
import { createHash } from 'node:crypto';
import type { CachedDocument, DocumentCache } from '../shared/contract.ts';
import { guardedFetch, type FetchPolicy } from './guarded-fetch.ts';
import { decode } from './limited-body.ts';
import { policyFromEnv } from './policy.ts';
import { intSetting } from '../process/config.ts';
import { isDomainError } from '../process/errors.ts';
import { KIND, UpstreamError } from './errors.ts';

export interface CachedFetchOptions {
  field: string;
  cache: DocumentCache;
  policy?: FetchPolicy;
  authorization?: string;
  signal?: AbortSignal;
  /** Ms a copy without `max-age` stays fresh; default LABLD_FETCH_CACHE_FRESH_S. */
  freshMs?: number;
  /** Ms past freshness a copy answers while the origin is unreachable; default LABLD_FETCH_CACHE_STALE_S. */
  staleMs?: number;
  now?: () => number;
}

export interface FetchedDocument {
  /** The URL finally answered (after redirects), without credentials. */
  url: string;
  contentType: string | undefined;
  body: Buffer;
  text(): string;
}

/** Fetches in flight in this thread, by cache key: concurrent misses share one fetch. */
const inFlight = new Map<string, Promise<FetchedDocument>>();

/** What the guard judged a fetch by, as one string: the same for every process with the same settings. */
function policyFingerprint(policy: FetchPolicy): string {
  return JSON.stringify([
    policy.allow.hosts.map((h) => [h.host, h.subdomains, h.port ?? null]),
    policy.allow.ranges.map((r) => [r.net.toString(), r.bits, r.port ?? null]),
    policy.maxBytes,
    policy.maxRedirects,
  ]);
}

export function cacheKey(url: string, policy: FetchPolicy, authorization: string | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify([url, authorization ?? null, policyFingerprint(policy)]))
    .digest('hex');
}

/** What the origin's Cache-Control allows: not kept at all, or fresh for so many ms (undefined: ours). */
function cacheControl(header: string | null): { store: boolean; maxAgeMs: number | undefined } {
  const directives = (header ?? '')
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  // A shared cache must not keep `private` answers, nor anything `no-store`.
  if (directives.includes('no-store') || directives.includes('private')) {
    return { store: false, maxAgeMs: undefined };
  }
  if (directives.includes('no-cache')) return { store: true, maxAgeMs: 0 };
  const maxAge = directives.map((d) => /^max-age=(\d+)$/.exec(d)?.[1]).find((v) => v !== undefined);
  return { store: true, maxAgeMs: maxAge === undefined ? undefined : Number(maxAge) * 1000 };
}

function answer(document: Pick<CachedDocument, 'url' | 'contentType' | 'body'>): FetchedDocument {
  const { url, contentType, body } = document;
  return { url, contentType, body, text: () => decode(body, contentType) };
}

/** The cache failing (Redis down) costs a direct fetch, never the request. */
async function tolerant<T>(work: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await work();
  } catch {
    return fallback;
  }
}

/** The origin could not be reached or failed on its side: not an answer about the document. */
function originDown(error: unknown): boolean {
  if (error instanceof UpstreamError) return error.upstreamStatus >= 500;
  return isDomainError(error) && (error.kind === KIND.upstream || error.kind === KIND.timeout);
}

async function fetchThrough(url: string, key: string, options: CachedFetchOptions): Promise<FetchedDocument> {
  const { cache, field, policy } = options;
  const now = options.now ?? Date.now;
  const freshMs = options.freshMs ?? intSetting('LABLD_FETCH_CACHE_FRESH_S') * 1000;
  const cached = await tolerant(() => cache.get(key), undefined);
  if (cached && cached.freshUntil > now()) return answer(cached);
  const revalidate = cached && (cached.etag !== undefined || cached.lastModified !== undefined);
  let fetched: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    fetched = await guardedFetch(url, {
      field,
      // Undefined: the guarded fetch makes (and closes) a policy of its own from the environment.
      policy,
      authorization: options.authorization,
      signal: options.signal,
      ...(revalidate && cached.etag !== undefined ? { ifNoneMatch: cached.etag } : {}),
      ...(revalidate && cached.lastModified !== undefined ? { ifModifiedSince: cached.lastModified } : {}),
    });
  } catch (error) {
    const staleMs = options.staleMs ?? intSetting('LABLD_FETCH_CACHE_STALE_S') * 1000;
    if (cached && originDown(error) && now() - cached.freshUntil <= staleMs) return answer(cached);
    throw error;
  }
  const control = cacheControl(fetched.headers.get('cache-control'));
  const freshUntil = now() + (control.maxAgeMs ?? freshMs);
  if (fetched.status === 304 && cached) {
    await fetched.bytes();
    await tolerant(() => cache.refresh(key, freshUntil), undefined);
    return answer(cached);
  }
  const body = await fetched.bytes();
  const document: CachedDocument = {
    url: fetched.url,
    contentType: fetched.contentType,
    etag: fetched.headers.get('etag') ?? undefined,
    lastModified: fetched.headers.get('last-modified') ?? undefined,
    body,
    freshUntil,
  };
  await tolerant(() => (control.store ? cache.put(key, document) : cache.delete(key)), undefined);
  return answer(document);
}

/**
 * The document at `url` through the guarded fetch and the cache. Errors are the guarded
 * fetch's (never cached: a 404 is asked again next time).
 */
export function fetchDocument(url: string, options: CachedFetchOptions): Promise<FetchedDocument> {
  const key = cacheKey(url, options.policy ?? policyFromEnv(), options.authorization);
  let shared = inFlight.get(key);
  if (!shared) {
    // The shared fetch belongs to no one caller: one caller's abort must not fail the others.
    shared = fetchThrough(url, key, { ...options, signal: undefined }).finally(() => inFlight.delete(key));
    inFlight.set(key, shared);
  }
  const { signal } = options;
  if (!signal) return shared;
  signal.throwIfAborted();
  return new Promise<FetchedDocument>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    shared.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
