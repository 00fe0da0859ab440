// The gateways' rate limit on process memory (LABLD_REDIS_URL unset).
import { memoryStores } from '../../lib/shared/memory.ts';
import { rateLimitSuite } from './rate-limit.ts';

rateLimitSuite('process memory', async (limits) => {
  const stores = memoryStores(limits);
  return { stores, cleanup: () => stores.close() };
});
