// The stores an operation worker may use, opened the first time an operation asks (a worker
// that only annotates never opens a database) and closed when the worker stops: the catalogue
// store and the datastore in LABLD_DATA, or on PostgreSQL when LABLD_DATABASE_URL is set.
import { openCatalogueStore } from '../lib/catalogue/store/open.ts';
import type { CatalogueStore } from '../lib/catalogue/store/contract.ts';
import { openDatastore } from '../lib/datastore/open.ts';
import type { Datastore } from '../lib/datastore/contract.ts';
import { setting } from '../lib/process/config.ts';
import { ANONYMOUS, type Credential } from '../lib/catalogue/auth/actor.ts';
import { filesForCredential, type CatalogueFiles } from '../lib/catalogue/resource-file.ts';

export interface OperationStores {
  catalogue(): Promise<CatalogueStore>;
  datastore(): Promise<Datastore>;
  /** Closes whatever was opened. */
  close(): Promise<void>;
}

/** Opens on first use, once: concurrent first calls share one opening. */
function once<T extends { close(): Promise<void> }>(open: () => Promise<T>) {
  let opened: Promise<T> | undefined;
  return {
    get: () => {
      opened ??= open().catch((error: unknown) => {
        opened = undefined; // a database that was down may be up on the next request
        throw error;
      });
      return opened;
    },
    close: async () => {
      const store = await opened?.catch(() => undefined);
      opened = undefined;
      await store?.close();
    },
  };
}

export function lazyStores(dataDir: string, env: NodeJS.ProcessEnv = process.env): OperationStores {
  const databaseUrl = setting('LABLD_DATABASE_URL', env);
  const catalogue = once(() => openCatalogueStore({ dataDir, databaseUrl }));
  const datastore = once(() => openDatastore({ dataDir, databaseUrl }));
  return {
    catalogue: catalogue.get,
    datastore: datastore.get,
    close: async () => {
      await Promise.all([catalogue.close(), datastore.close()]);
    },
  };
}

/**
 * The catalogue's files as `credential` may read them (lib/sources.ts reads a URL of this
 * catalogue through it); the store is opened only when a URL names one.
 */
export function catalogueFiles(stores: OperationStores, credential: Credential = ANONYMOUS): CatalogueFiles {
  return async (dataset, resource, field) =>
    filesForCredential(await stores.catalogue(), credential)(dataset, resource, field);
}
