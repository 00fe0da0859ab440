// The shared stores on Redis (LABLD_REDIS_URL): what one process counts or keeps, every other
// process of the deployment sees. Each change that reads and writes is one Lua script, so two
// processes never interleave inside it (a window's count, an eviction).
import { Redis } from 'ioredis';
import type {
  CachedDocument,
  DocumentCache,
  DocumentCacheLimits,
  RateDecision,
  RateLimiter,
  SharedStores,
} from './contract.ts';

// KEYS: entry, lru (sorted set: entry key by last use), bytes (counter).
// ARGV: meta, body, now, maxEntries, maxBytes. The entries evicted are named by the sorted
// set, not in KEYS: fine on one Redis server, not on a cluster (labld uses one server).
const PUT = `
local old = redis.call('HGET', KEYS[1], 'size')
if old then redis.call('DECRBY', KEYS[3], old) end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
local size = string.len(ARGV[2])
if size > tonumber(ARGV[5]) or tonumber(ARGV[4]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'meta', ARGV[1], 'body', ARGV[2], 'size', size)
redis.call('INCRBY', KEYS[3], size)
redis.call('ZADD', KEYS[2], ARGV[3], KEYS[1])
while redis.call('ZCARD', KEYS[2]) > tonumber(ARGV[4])
  or tonumber(redis.call('GET', KEYS[3]) or '0') > tonumber(ARGV[5]) do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  if not oldest then break end
  local dropped = redis.call('HGET', oldest, 'size')
  if dropped then redis.call('DECRBY', KEYS[3], dropped) end
  redis.call('DEL', oldest)
  redis.call('ZREM', KEYS[2], oldest)
end
return 1
`;

// KEYS: entry, lru, bytes. A copy Redis itself dropped (maxmemory) leaves the set and the count.
const DELETE = `
local old = redis.call('HGET', KEYS[1], 'size')
if old then redis.call('DECRBY', KEYS[3], old) end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
return 1
`;

// KEYS: window. ARGV: windowMs. The first hit opens the window; answers {count, ms left}.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
`;

// KEYS: record. ARGV: pending record, ttlMs. Nothing when claimed, else the record there.
interface Scripts {
  labldCachePut(...args: (string | Buffer | number)[]): Promise<number>;
  labldCacheDelete(...args: string[]): Promise<number>;
  labldRateHit(key: string, windowMs: number): Promise<[number, number]>;
}

type Client = Redis & Scripts;

/** A connection lost (and being retried) or closed. */
const LOST = new Set(['reconnecting', 'close', 'end']);

/**
 * The client, if it is connected or connecting. While the connection is lost, a command fails
 * at once instead of waiting for the next attempt (the callers go on without the store).
 */
function usable(redis: Client): Client {
  if (LOST.has(redis.status)) throw new Error('Redis is not connected');
  return redis;
}

interface Meta {
  url: string;
  contentType?: string;
  etag?: string;
  lastModified?: string;
  freshUntil: number;
}

export class RedisDocumentCache implements DocumentCache {
  readonly limits: DocumentCacheLimits;
  readonly #redis: Client;
  readonly #prefix: string;

  constructor(redis: Client, prefix: string, limits: DocumentCacheLimits) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.limits = limits;
  }

  #keys(key: string): [string, string, string] {
    return [`${this.#prefix}doc:${key}`, `${this.#prefix}doc-lru`, `${this.#prefix}doc-bytes`];
  }

  async get(key: string): Promise<CachedDocument | undefined> {
    const [entry, lru] = this.#keys(key);
    const found = await usable(this.#redis).hgetallBuffer(entry);
    if (!found.meta || !found.body) return undefined;
    await usable(this.#redis).zadd(lru, 'XX', Date.now(), entry);
    const meta = JSON.parse(found.meta.toString('utf8')) as Meta;
    return {
      url: meta.url,
      contentType: meta.contentType,
      etag: meta.etag,
      lastModified: meta.lastModified,
      freshUntil: meta.freshUntil,
      body: found.body,
    };
  }

  async put(key: string, document: CachedDocument): Promise<void> {
    const { body, ...rest } = document;
    const meta: Meta = {
      url: rest.url,
      freshUntil: rest.freshUntil,
      ...(rest.contentType === undefined ? {} : { contentType: rest.contentType }),
      ...(rest.etag === undefined ? {} : { etag: rest.etag }),
      ...(rest.lastModified === undefined ? {} : { lastModified: rest.lastModified }),
    };
    const { maxEntries, maxBytes } = this.limits;
    await usable(this.#redis).labldCachePut(
      ...this.#keys(key),
      JSON.stringify(meta),
      body,
      Date.now(),
      maxEntries,
      maxBytes,
    );
  }

  async refresh(key: string, freshUntil: number): Promise<void> {
    const [entry] = this.#keys(key);
    const meta = await usable(this.#redis).hget(entry, 'meta');
    if (meta === null) return;
    await usable(this.#redis).hset(
      entry,
      'meta',
      JSON.stringify({ ...(JSON.parse(meta) as Meta), freshUntil }),
    );
  }

  async delete(key: string): Promise<void> {
    await usable(this.#redis).labldCacheDelete(...this.#keys(key));
  }
}

export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Client;
  readonly #prefix: string;

  constructor(redis: Client, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    const [count, left] = await usable(this.#redis).labldRateHit(`${this.#prefix}rate:${key}`, windowMs);
    return { allowed: count <= limit, count, resetMs: left };
  }

  async vouch(key: string, ttlMs: number): Promise<void> {
    await usable(this.#redis).set(`${this.#prefix}vouched:${key}`, '1', 'PX', ttlMs);
  }

  async vouched(key: string): Promise<boolean> {
    return (await usable(this.#redis).exists(`${this.#prefix}vouched:${key}`)) === 1;
  }
}

export interface RedisOptions {
  url: string;
  /** Put in front of every key (several installations, or tests, on one server). */
  prefix: string;
  limits: DocumentCacheLimits;
  /** A command not answered by then fails (default 2000 ms): a Redis that is down never hangs a request. */
  commandTimeoutMs?: number;
}

/** The shared stores on the Redis at `url`; connects lazily, and again after a failure. */
export function redisStores(options: RedisOptions): SharedStores {
  const redis = new Redis(options.url, {
    lazyConnect: true,
    connectTimeout: options.commandTimeoutMs ?? 2000,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    maxRetriesPerRequest: 1,
    // Reconnect quickly, but never faster than every 100 ms, nor slower than every 2 s.
    retryStrategy: (times) => Math.min(100 * times, 2000),
  }) as Client;
  // Errors reach the command that failed; the client's own event would otherwise crash the process.
  redis.on('error', () => {});
  redis.defineCommand('labldCachePut', { numberOfKeys: 3, lua: PUT });
  redis.defineCommand('labldCacheDelete', { numberOfKeys: 3, lua: DELETE });
  redis.defineCommand('labldRateHit', { numberOfKeys: 1, lua: HIT });
  const { prefix, limits } = options;
  return {
    kind: 'redis',
    documents: new RedisDocumentCache(redis, prefix, limits),
    rateLimiter: new RedisRateLimiter(redis, prefix),
    ready: async () => (await usable(redis).ping()) === 'PONG',
    close: async () => {
      redis.disconnect();
    },
  };
}
