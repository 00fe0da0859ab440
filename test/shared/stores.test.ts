// The shared stores' contract in process memory (the default, LABLD_REDIS_URL unset).
import { memoryStores } from '../../lib/shared/memory.ts';
import { sharedStoresConformance } from './conformance.ts';

sharedStoresConformance('process memory', async (limits) => {
  const stores = memoryStores(limits);
  return { stores, cleanup: () => stores.close() };
});
