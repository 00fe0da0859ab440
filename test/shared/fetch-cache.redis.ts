// The fetch cache on Redis (LABLD_TEST_REDIS_URL, started by .ci/run).
import { fetchCacheSuite } from './fetch-cache.ts';
import { freshRedisStores, redisUrl } from './redis.ts';

fetchCacheSuite(`redis at ${redisUrl}`, freshRedisStores);
