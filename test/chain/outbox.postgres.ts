// The chain's outbox and step status on PostgreSQL (LABLD_TEST_DATABASE_URL, started by
// .ci/run), in a schema of its own, dropped after. Unset is a failure, not a skip.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { outboxSuite } from './outbox-suite.ts';

const url = process.env.LABLD_TEST_DATABASE_URL ?? '';

outboxSuite(`postgres at ${url.replace(/\/\/[^@]*@/, '//')}`, async () => {
  if (!url) throw new Error('LABLD_TEST_DATABASE_URL is not set: start tools/postgres/server.sh and set it');
  const schema = `test_chain_${randomBytes(6).toString('hex')}`;
  const store = await openCatalogueStore({ dataDir: '', databaseUrl: url, schema });
  return {
    store,
    async dispose() {
      await store.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
});
