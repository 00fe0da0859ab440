// The catalogue store conformance suite on PostgreSQL (LABLD_TEST_DATABASE_URL, started by
// .ci/run): each test gets its own schema, dropped after. Unset or unreachable is a failure.
// And a server that ends a connection mid-transaction (a restart) ends no process.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { catalogueStoreConformance, namespaceOf } from './store-conformance.ts';

const url = process.env.LABLD_TEST_DATABASE_URL ?? '';

async function sql(statement: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement, params);
  } finally {
    await client.end();
  }
}

catalogueStoreConformance({
  name: `postgres at ${url.replace(/\/\/[^@]*@/, '//')}`,
  concurrentConnections: true,
  async fresh() {
    // Every test fails, none is skipped, when there is no server to run on.
    if (!url)
      throw new Error('LABLD_TEST_DATABASE_URL is not set: start tools/postgres/server.sh and set it');
    const schema = `test_catalogue_${randomBytes(6).toString('hex')}`;
    return namespaceOf(
      () => openCatalogueStore({ dataDir: '', databaseUrl: url, schema }),
      (version) =>
        sql(
          `INSERT INTO ${schema}.schema_migrations (component, version, name, applied_at) VALUES ('catalogue', $1, 'future', '')`,
          [version],
        ),
      () => sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`),
    );
  },
});

test('a connection the server ends inside a transaction fails that transaction, not the process', async () => {
  if (!url) throw new Error('LABLD_TEST_DATABASE_URL is not set: start tools/postgres/server.sh and set it');
  const schema = `test_catalogue_${randomBytes(6).toString('hex')}`;
  const store = await openCatalogueStore({ dataDir: '', databaseUrl: url, schema });
  try {
    const failed = store.transaction(async (tx) => {
      await tx.createDataset({ name: 'kept-not' });
      // As a server restart does, while the transaction waits between two statements.
      await sql(
        `SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = 'packages'`,
        [schema],
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      return tx.listDatasets();
    });
    await assert.rejects(failed);
    // The broken connection was let go: the next transaction gets a working one.
    await store.transaction((tx) => tx.createDataset({ name: 'kept' }));
    assert.deepEqual(
      (await store.listDatasets()).map((d) => d.name),
      ['kept'],
    );
  } finally {
    await store.close();
    await sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
});
