// What several gateway and consumer processes must share, behind small interfaces: the cache of
// fetched documents and the per-caller request counts of the rate limit (idempotency keys are
// the catalogue store's, kept with the writes they answer for). Two implementations keep the same contract (test/shared/conformance.ts): one in
// process memory (the default, and all an embedded labld needs) and one on Redis
// (LABLD_REDIS_URL), which every process of a scale-out deployment reaches.

/** A fetched document as the cache keeps it: its bytes and what revalidating it needs. */
export interface CachedDocument {
  /** The URL finally answered (after redirects), without credentials. */
  url: string;
  contentType: string | undefined;
  /** Validators for If-None-Match / If-Modified-Since; neither: refetched once stale. */
  etag: string | undefined;
  lastModified: string | undefined;
  body: Buffer;
  /** Epoch ms until which the copy is used without asking the origin. */
  freshUntil: number;
}

export interface DocumentCacheLimits {
  /** Most documents kept; the least recently used go first. */
  maxEntries: number;
  /** Most bytes of bodies kept, all documents together; one larger than this is not kept. */
  maxBytes: number;
}

export interface DocumentCache {
  readonly limits: DocumentCacheLimits;
  /** The copy under `key` (counted as a use), or undefined. */
  get(key: string): Promise<CachedDocument | undefined>;
  /** Keeps `document` under `key`, replacing any copy, then drops the least used past the limits. */
  put(key: string, document: CachedDocument): Promise<void>;
  /** After a 304: the copy is fresh until `freshUntil` (nothing happens if it was dropped meanwhile). */
  refresh(key: string, freshUntil: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/** The outcome of counting one request against a caller's limit. */
export interface RateDecision {
  allowed: boolean;
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Ms until the window ends and the count starts again. */
  resetMs: number;
}

/** Fixed windows per key: the first request opens a window of `windowMs`; at most `limit` pass in it. */
export interface RateLimiter {
  hit(key: string, limit: number, windowMs: number): Promise<RateDecision>;
  /**
   * `key` proved itself (an API token that labld accepted) and is counted on its own for
   * `ttlMs`; until then, and for keys nobody vouched for, the gateways count the client address.
   */
  vouch(key: string, ttlMs: number): Promise<void>;
  /** Whether `key` was vouched for and that has not expired. */
  vouched(key: string): Promise<boolean>;
}

export interface SharedStores {
  /** `memory` or `redis`, for /readyz and the log. */
  readonly kind: 'memory' | 'redis';
  readonly documents: DocumentCache;
  readonly rateLimiter: RateLimiter;
  /** Throws (or answers false) when the store cannot be reached. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
