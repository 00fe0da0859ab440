// The import's locale cases (locale-import.ts) on PostgreSQL (LABLD_TEST_DATABASE_URL, which
// .ci/run sets after starting the server; unset, this fails rather than skips), each in a schema
// of its own, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgresDatastore } from '../../lib/datastore/postgres.ts';
import { localeImport } from './locale-import.ts';

const url = process.env.LABLD_TEST_DATABASE_URL;
if (!url)
  throw new Error(
    'LABLD_TEST_DATABASE_URL is not set: the PostgreSQL suite needs a server (tools/postgres/server.sh)',
  );

localeImport('postgres', async () => {
  const schema = `test_locale_${randomBytes(6).toString('hex')}`;
  const store = await openPostgresDatastore(url, schema);
  return {
    store,
    dispose: async () => {
      await store.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
});
