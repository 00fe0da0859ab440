// The fetch cache on process memory (LABLD_REDIS_URL unset, as an embedded labld runs).
import { memoryStores } from '../../lib/shared/memory.ts';
import { fetchCacheSuite } from './fetch-cache.ts';

fetchCacheSuite('process memory', async (limits) => {
  const stores = memoryStores(limits);
  return { stores, cleanup: () => stores.close() };
});
