// Which shared stores a process uses: Redis when LABLD_REDIS_URL is set, else process memory.
import { byteSetting, intSetting, setting } from '../process/config.ts';
import type { DocumentCacheLimits, SharedStores } from './contract.ts';
import { memoryStores } from './memory.ts';

export type { SharedStores } from './contract.ts';

export interface SharedConfig {
  /** Empty: process memory. */
  redisUrl: string;
  /** Key prefix on Redis. */
  prefix: string;
  limits: DocumentCacheLimits;
}

/** Every labld key on Redis starts with this (tests use their own, so they never meet). */
export const REDIS_PREFIX = 'labld:';

export function sharedConfigFromEnv(env: NodeJS.ProcessEnv = process.env): SharedConfig {
  return {
    redisUrl: setting('LABLD_REDIS_URL', env),
    prefix: REDIS_PREFIX,
    limits: {
      maxEntries: intSetting('LABLD_FETCH_CACHE_ENTRIES', env),
      maxBytes: byteSetting('LABLD_FETCH_CACHE_BYTES', env),
    },
  };
}

/** Redis's client is loaded only where LABLD_REDIS_URL is set: every worker thread starts faster without it. */
export async function openSharedStores(config: SharedConfig = sharedConfigFromEnv()): Promise<SharedStores> {
  if (config.redisUrl === '') return memoryStores(config.limits);
  if (!/^rediss?:\/\//.test(config.redisUrl)) {
    throw new Error(`LABLD_REDIS_URL must be a redis:// or rediss:// URL, got ${config.redisUrl}`);
  }
  const { redisStores } = await import('./redis.ts');
  return redisStores({ url: config.redisUrl, prefix: config.prefix, limits: config.limits });
}
