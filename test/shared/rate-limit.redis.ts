// The gateways' rate limit on Redis (LABLD_TEST_REDIS_URL, started by .ci/run).
import { rateLimitSuite } from './rate-limit.ts';
import { freshRedisStores, redisUrl } from './redis.ts';

rateLimitSuite(`redis at ${redisUrl}`, freshRedisStores);
