// The shared stores' contract on Redis (LABLD_TEST_REDIS_URL, started by .ci/run).
import { sharedStoresConformance } from './conformance.ts';
import { freshRedisStores, redisUrl } from './redis.ts';

sharedStoresConformance(`redis at ${redisUrl}`, freshRedisStores);
