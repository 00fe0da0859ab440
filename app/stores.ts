// The catalogue store and the datastore of a process, opened on first use and closed at
// shutdown. Lazy because most processes (a service gateway, a consumer group) never touch them,
// and because a database that is down at start must not keep the rest of labld from serving:
// /readyz says so, and the next use tries again.
import { catalogueConfigFromEnv, openCatalogueStore } from '../lib/catalogue/store/open.ts';
import type { CatalogueStore } from '../lib/catalogue/store/contract.ts';
import { datastoreConfigFromEnv, openDatastore } from '../lib/datastore/open.ts';
import type { Datastore } from '../lib/datastore/contract.ts';
import { openTripleStore, tripleStoreConfigFromEnv } from '../lib/triplestore/open.ts';
import type { TripleStore } from '../lib/triplestore/contract.ts';

export interface Lazy<T> {
  /** The opened store; opens it on the first call (a failed open is tried again next time). */
  get(): Promise<T>;
  /** Closes it if it was opened; a later get() opens it again. */
  close(): Promise<void>;
}

/** `open` on first use, once; `close` (if given) at close. Also for values with nothing to close (a key file). */
export function lazy<T>(
  open: () => Promise<T>,
  close: (value: T) => Promise<void> = async () => {},
): Lazy<T> {
  let opening: Promise<T> | undefined;
  return {
    get() {
      opening ??= open().catch((error: unknown) => {
        opening = undefined;
        throw error;
      });
      return opening;
    },
    async close() {
      const was = opening;
      opening = undefined;
      if (was) await was.then(close, () => {});
    },
  };
}

export interface ProcessStores {
  catalogue: Lazy<CatalogueStore>;
  datastore: Lazy<Datastore>;
  tripleStore: Lazy<TripleStore>;
}

/** The stores of a process on `dataDir` (LABLD_DATABASE_URL, when set, wins for both). */
export function processStores(dataDir: string): ProcessStores {
  return {
    catalogue: lazy(
      () => openCatalogueStore({ ...catalogueConfigFromEnv(), dataDir }),
      (store) => store.close(),
    ),
    datastore: lazy(
      () => openDatastore({ ...datastoreConfigFromEnv(), dataDir }),
      (store) => store.close(),
    ),
    tripleStore: lazy(
      () => openTripleStore({ ...tripleStoreConfigFromEnv(), dataDir }),
      (store) => store.close(),
    ),
  };
}
