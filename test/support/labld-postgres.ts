// A whole labld whose catalogue store and datastore are a PostgreSQL database of their own on
// LABLD_TEST_DATABASE_URL's server, made for the caller and dropped when it stops.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_FILE } from '../../lib/catalogue/store/embedded.ts';
import { freshDatabase } from './database.ts';
import { startLabld } from './labld.ts';

export interface LabldOnPostgres {
  url: string;
  dataDir: string;
  /** The database's URL (what the process was given as LABLD_DATABASE_URL). */
  databaseUrl: string;
  stop(): Promise<void>;
}

/** `prefix` names the database (e.g. `test_pages`). */
export async function startLabldOnPostgres(prefix: string): Promise<LabldOnPostgres> {
  const database = await freshDatabase(prefix);
  const saved = process.env['LABLD_DATABASE_URL'];
  process.env['LABLD_DATABASE_URL'] = database.url;
  const labld = await startLabld();
  return {
    url: labld.url,
    dataDir: labld.dataDir,
    databaseUrl: database.url,
    async stop() {
      // Everything ran on PostgreSQL: the embedded catalogue and datastore files were never made.
      assert.equal(existsSync(join(labld.dataDir, CATALOGUE_FILE)), false, 'no embedded catalogue');
      assert.equal(existsSync(join(labld.dataDir, 'datastore.sqlite')), false, 'no embedded datastore');
      await labld.stop();
      if (saved === undefined) delete process.env['LABLD_DATABASE_URL'];
      else process.env['LABLD_DATABASE_URL'] = saved;
      await database.drop();
    },
  };
}
