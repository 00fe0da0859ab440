// A whole labld on PostgreSQL for the end-to-end matrices: its catalogue store and datastore in
// a database of its own on LABLD_TEST_DATABASE_URL's server, made for it and dropped at stop.
import { freshDatabase } from './database.ts';
import { startLabld } from './labld.ts';

export interface PostgresLabld {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** `prefix` names the database (`<prefix>_<random>`). */
export async function labldOnPostgres(prefix: string): Promise<PostgresLabld> {
  const database = await freshDatabase(prefix);
  const saved = process.env['LABLD_DATABASE_URL'];
  process.env['LABLD_DATABASE_URL'] = database.url;
  const labld = await startLabld();
  return {
    url: labld.url,
    dataDir: labld.dataDir,
    async stop() {
      await labld.stop();
      if (saved === undefined) delete process.env['LABLD_DATABASE_URL'];
      else process.env['LABLD_DATABASE_URL'] = saved;
      await database.drop();
    },
  };
}
