// The catalogue's request consumer: each CKAN action is an operation run in a worker, on the
// worker's catalogue store and datastore. The request carries the caller's hash-only
// Credential; resolving it against the store (an unknown token is refused) happens here.
// Loaded by the worker threads only (consumers/service-requests.ts names it).
import { ACTION_NAMES, CATALOGUE_GROUP, type CatalogueInput } from '../lib/contracts/catalogue.ts';
import { checkCatalogueRequest } from '../lib/contracts/catalogue-check.ts';
import { runAction } from '../lib/catalogue/actions/index.ts';
import { baseUrl } from '../lib/services.ts';
import type { Operation, OperationEnv } from './request-consumer.ts';

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
    (name: string): Operation<CatalogueInput> =>
    async (input) => {
      checkCatalogueRequest({ operation: name, input });
      const extras = input.upload ? { upload: input.upload } : {};
      return runAction(await deps(), input.credential, name, input.params, extras);
    };
  return Object.fromEntries(ACTION_NAMES.map((name) => [name, operation(name) as Operation<never>]));
}
