// The catalogue's request consumer: each CKAN action is an operation run in a worker, on the
// worker's catalogue store and datastore. The request carries the caller's hash-only
// Credential; resolving it against the store (an unknown token is refused) happens here.
// Loaded by the worker threads only (consumers/service-requests.ts names it).
import {
  ACTION_NAMES,
  CATALOGUE_ACTIONS,
  CATALOGUE_GROUP,
  type ActionName,
  type CatalogueInput,
} from '../lib/contracts/catalogue.ts';
import { checkCatalogueRequest } from '../lib/contracts/catalogue-check.ts';
import { runAction } from '../lib/catalogue/actions/index.ts';
import type { CatalogueStore } from '../lib/catalogue/store/contract.ts';
import { baseUrl } from '../lib/services.ts';
import type { Operation, OperationEnv } from './request-consumer.ts';

/**
 * The actions whose writes are the catalogue's: run once per request id, so that one the bus
 * delivers again (its offset commit lost) answers as before and writes nothing twice. The
 * datastore's writes are in another database, and holding a catalogue transaction open over a
 * long table import would stall every other writer of an embedded catalogue.
 */
export const writesCatalogue = (name: ActionName): boolean =>
  !CATALOGUE_ACTIONS[name] && !name.startsWith('datastore_');

/** The catalogue's operations, one per action; each checks its request first (after a claim is fetched). */
export function operationsFor(group: string, env: OperationEnv): Record<string, Operation<never>> {
  if (group !== CATALOGUE_GROUP) throw new Error(`no request consumer named ${group}`);
  const deps = async () => ({
    store: await env.stores.catalogue(),
    datastore: await env.stores.datastore(),
    blobs: env.blobs,
    siteUrl: baseUrl(),
  });
  const operation =
    (name: ActionName): Operation<CatalogueInput> =>
    async (input, { requestId }) => {
      checkCatalogueRequest({ operation: name, input });
      const extras = input.upload ? { upload: input.upload } : {};
      const base = await deps();
      const run = (store: CatalogueStore) =>
        runAction({ ...base, store }, input.credential, name, input.params, extras);
      if (requestId === undefined || !writesCatalogue(name)) return run(base.store);
      return base.store.handleOnce({ id: requestId, operation: name }, run);
    };
  return Object.fromEntries(ACTION_NAMES.map((name) => [name, operation(name) as Operation<never>]));
}
