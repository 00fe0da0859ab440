// The Datastore conformance suite on PostgreSQL (LABLD_TEST_DATABASE_URL, which .ci/run sets
// after starting the server; unset, this fails rather than skips). Each namespace is a schema
// with a random name, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgresDatastore } from '../../lib/datastore/postgres.ts';
import { datastoreConformance } from './conformance.ts';

const url = process.env.LABLD_TEST_DATABASE_URL;
if (!url)
  throw new Error(
    'LABLD_TEST_DATABASE_URL is not set: the PostgreSQL suite needs a server (tools/postgres/server.sh)',
  );

datastoreConformance({
  name: 'postgres',
  async fresh() {
    const schema = `test_datastore_${randomBytes(6).toString('hex')}`;
    return {
      connect: () => openPostgresDatastore(url, schema),
      async dispose() {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        } finally {
          await client.end();
        }
      },
    };
  },
});
