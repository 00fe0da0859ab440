// The catalogue's request consumer: each CKAN action is an operation run in a worker, on the
// worker's catalogue store and datastore. The request carries the caller's hash-only
// Credential; resolving it against the store (an unknown token is refused) happens here.
// Loaded by the worker threads only (consumers/workers/operations.ts names it).
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
import { intSetting } from '../lib/process/config.ts';
import { log } from '../lib/process/log.ts';
import { baseUrl } from '../lib/services.ts';
import type { Operation, OperationEnv } from './request-consumer.ts';

/**
 * How long a handled request's id is kept: past the retention of the topic that carries the
 * requests (topics.yaml: 1 day; a test keeps this longer), since the bus cannot deliver an
 * older one again. Each worker forgets the older ones at most once an hour, outside any
 * request's transaction.
 */
export const KEEP_HANDLED_MS = 7 * 24 * 3600_000;
const FORGET_EVERY_MS = 3600_000;
let forgotten = 0;

function forgetOldRequests(store: CatalogueStore): void {
  const now = Date.now();
  if (now - forgotten < FORGET_EVERY_MS) return;
  forgotten = now;
  store.forgetHandledRequests(new Date(now - KEEP_HANDLED_MS)).catch((error: unknown) => {
    log.warn({ err: String(error) }, 'could not forget old handled requests; tried again in an hour');
  });
}

/**
 * The actions whose writes are the catalogue's: run once per request id, so that one the bus
 * delivers again (its offset commit lost) answers as before and writes nothing twice. The
 * datastore's writes are in another database, and holding a catalogue transaction open over a
 * long table import would stall every other writer of an embedded catalogue.
 */
export const writesCatalogue = (name: ActionName): boolean =>
  !CATALOGUE_ACTIONS[name] && !name.startsWith('datastore_');

/** The catalogue's operations, one per action; each checks a request the bus could not (a claim's, fetched here). */
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
    async (input, { requestId, checked }) => {
      if (!checked) checkCatalogueRequest({ operation: name, input });
      const extras = input.upload ? { upload: input.upload } : {};
      const base = await deps();
      const run = (store: CatalogueStore) =>
        runAction({ ...base, store }, input.credential, name, input.params, extras);
      if (requestId === undefined || !writesCatalogue(name)) return run(base.store);
      forgetOldRequests(base.store);
      const { idempotency } = input;
      const expires = new Date(Date.now() + intSetting('LABLD_IDEMPOTENCY_TTL_S') * 1000);
      return base.store.handleOnce(
        {
          id: requestId,
          operation: name,
          ...(idempotency ? { idempotency: { ...idempotency, expires } } : {}),
        },
        run,
      );
    };
  return Object.fromEntries(ACTION_NAMES.map((name) => [name, operation(name) as Operation<never>]));
}
