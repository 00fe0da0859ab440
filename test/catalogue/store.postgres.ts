// The catalogue store conformance suite on PostgreSQL (LABLD_TEST_DATABASE_URL, started by
// .ci/run): each test gets its own schema, dropped after. Unset or unreachable is a failure.
import { randomBytes } from 'node:crypto';
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
