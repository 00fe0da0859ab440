// Fresh shared stores on the Redis of LABLD_TEST_REDIS_URL (started by .ci/run): each test under
// a key prefix of its own, whose keys are deleted after. Unset or unreachable is a failure.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { DocumentCacheLimits } from '../../lib/shared/contract.ts';
import { redisStores } from '../../lib/shared/redis.ts';
import type { Fresh } from './conformance.ts';

export const redisUrl = process.env.LABLD_TEST_REDIS_URL ?? '';

export async function freshRedisStores(limits: DocumentCacheLimits): Promise<Fresh> {
  // Every test fails, none is skipped, when there is no server to run on.
  if (!redisUrl) throw new Error('LABLD_TEST_REDIS_URL is not set: start tools/redis/server.sh and set it');
  const prefix = `test-${randomBytes(6).toString('hex')}:`;
  const stores = redisStores({ url: redisUrl, prefix, limits });
  return {
    stores,
    async cleanup() {
      await stores.close();
      const admin = new Redis(redisUrl, { lazyConnect: true });
      try {
        const keys = await admin.keys(`${prefix}*`);
        if (keys.length > 0) await admin.del(...keys);
      } finally {
        admin.disconnect();
      }
    },
  };
}
