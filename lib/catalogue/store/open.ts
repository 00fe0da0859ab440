// Opening the catalogue store from configuration: the one place that picks an implementation.
import { setting } from '../../process/config.ts';
import type { CatalogueStore } from './contract.ts';
import { openEmbeddedCatalogue } from './embedded.ts';
import { countedCalls } from '../../process/counters.ts';

export interface CatalogueConfig {
  /** LABLD_DATA: the embedded database's directory. */
  dataDir: string;
  /** LABLD_DATABASE_URL: PostgreSQL; empty or absent: the embedded database. */
  databaseUrl?: string;
  /** PostgreSQL only: the schema to keep the tables in (tests isolate in one). */
  schema?: string;
}

export function catalogueConfigFromEnv(env: NodeJS.ProcessEnv = process.env): CatalogueConfig {
  return { dataDir: setting('LABLD_DATA', env), databaseUrl: setting('LABLD_DATABASE_URL', env) };
}

/** An opened store, its schema created or migrated. */
export async function openCatalogueStore(config: CatalogueConfig): Promise<CatalogueStore> {
  // The PostgreSQL store is loaded only when configured: an embedded process need not hold its driver.
  const store = config.databaseUrl
    ? await (
        await import('./postgres/store.ts')
      ).openPostgresCatalogue({
        url: config.databaseUrl,
        schema: config.schema,
      })
    : await openEmbeddedCatalogue(config.dataDir);
  return countedCalls(store, 'store');
}
