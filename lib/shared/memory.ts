// The shared stores in process memory: the default when LABLD_REDIS_URL is unset. Every map is
// bounded, so a flood of callers, keys or documents costs memory only up to a limit.
import type {
  CachedDocument,
  DocumentCache,
  DocumentCacheLimits,
  RateDecision,
  RateLimiter,
  SharedStores,
} from './contract.ts';

/** Most rate-limit windows kept; past it the oldest go first. */
const MAX_KEYS = 100_000;

export class MemoryDocumentCache implements DocumentCache {
  readonly limits: DocumentCacheLimits;
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  readonly #entries = new Map<string, CachedDocument>();
  #bytes = 0;

  constructor(limits: DocumentCacheLimits) {
    this.limits = limits;
  }

  async get(key: string): Promise<CachedDocument | undefined> {
    const found = this.#entries.get(key);
    if (!found) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, found);
    return { ...found };
  }

  async put(key: string, document: CachedDocument): Promise<void> {
    await this.delete(key);
    if (document.body.length > this.limits.maxBytes || this.limits.maxEntries === 0) return;
    this.#entries.set(key, { ...document });
    this.#bytes += document.body.length;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.limits.maxEntries && this.#bytes <= this.limits.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.body.length;
    }
  }

  async refresh(key: string, freshUntil: number): Promise<void> {
    const found = this.#entries.get(key);
    if (found) found.freshUntil = freshUntil;
  }

  async delete(key: string): Promise<void> {
    const found = this.#entries.get(key);
    if (!found) return;
    this.#entries.delete(key);
    this.#bytes -= found.body.length;
  }
}

/** A map whose entries expire, bounded by dropping the oldest (first inserted) past `MAX_KEYS`. */
class Expiring<T> {
  readonly #entries = new Map<string, { value: T; expires: number }>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  get(key: string): { value: T; expires: number } | undefined {
    const found = this.#entries.get(key);
    if (found && found.expires <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return found;
  }

  set(key: string, value: T, ttlMs: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: this.#now() + ttlMs });
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= MAX_KEYS) break;
      this.#entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}

export class MemoryRateLimiter implements RateLimiter {
  readonly #windows: Expiring<{ count: number }>;
  readonly #vouched: Expiring<true>;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#windows = new Expiring(now);
    this.#vouched = new Expiring(now);
  }

  async vouch(key: string, ttlMs: number): Promise<void> {
    this.#vouched.set(key, true, ttlMs);
  }

  async vouched(key: string): Promise<boolean> {
    return this.#vouched.get(key) !== undefined;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    const found = this.#windows.get(key);
    if (!found) {
      this.#windows.set(key, { count: 1 }, windowMs);
      return { allowed: 1 <= limit, count: 1, resetMs: windowMs };
    }
    found.value.count += 1;
    const { count } = found.value;
    return { allowed: count <= limit, count, resetMs: Math.max(0, found.expires - this.#now()) };
  }
}

export function memoryStores(limits: DocumentCacheLimits, now: () => number = Date.now): SharedStores {
  return {
    kind: 'memory',
    documents: new MemoryDocumentCache(limits),
    rateLimiter: new MemoryRateLimiter(now),
    ready: async () => true,
    close: async () => {},
  };
}
