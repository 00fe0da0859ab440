// The shared stores in a whole labld on Redis (LABLD_TEST_REDIS_URL, started by .ci/run).
import { labldSuite } from './labld.ts';
import { redisUrl } from './redis.ts';

labldSuite(`redis at ${redisUrl}`, () => {
  // Every test fails, none is skipped, when there is no server to run on.
  if (!redisUrl) throw new Error('LABLD_TEST_REDIS_URL is not set: start tools/redis/server.sh and set it');
  return { LABLD_REDIS_URL: redisUrl };
});
