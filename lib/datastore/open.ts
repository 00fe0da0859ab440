// Opening the datastore from configuration: the one place that picks an implementation.
// LABLD_DATABASE_URL names a PostgreSQL database (tables in the `datastore` schema); empty,
// the embedded one: LABLD_DATA/datastore.sqlite.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setting } from '../process/config.ts';
import { isDomainError, unreachable } from '../process/errors.ts';
import type { Datastore } from './contract.ts';
import { openEmbeddedDatastore } from './embedded.ts';

export interface DatastoreConfig {
  /** PostgreSQL URL; empty: embedded. */
  databaseUrl: string;
  dataDir: string;
}

export function datastoreConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DatastoreConfig {
  return { databaseUrl: setting('LABLD_DATABASE_URL', env), dataDir: setting('LABLD_DATA', env) };
}

export async function openDatastore(config: DatastoreConfig = datastoreConfigFromEnv()): Promise<Datastore> {
  if (config.databaseUrl === '') {
    mkdirSync(config.dataDir, { recursive: true });
    return openEmbeddedDatastore(join(config.dataDir, 'datastore.sqlite'));
  }
  try {
    // Loaded only here: an embedded process need not hold the PostgreSQL driver.
    const { openPostgresDatastore } = await import('./postgres.ts');
    return await openPostgresDatastore(config.databaseUrl);
  } catch (error) {
    // Ours pass (a schema newer than this code, say); the driver's text may hold the URL's
    // password: say what failed, not what it said.
    if (isDomainError(error) || (error instanceof Error && error.constructor === Error && !('code' in error)))
      throw error;
    const code = (error as { code?: unknown }).code;
    throw unreachable(
      `the datastore's PostgreSQL database cannot be opened${typeof code === 'string' ? ` (${code})` : ''}`,
    );
  }
}
