// The Datastore conformance and migration suites on PostgreSQL (LABLD_TEST_DATABASE_URL, which
// .ci/run sets after starting the server; unset, this fails rather than skips). Each namespace
// is a schema with a random name, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgresDatastore } from '../../lib/datastore/postgres.ts';
import { datastoreConformance, type ConformanceEnvironment } from './conformance.ts';
import { datastoreMigrations } from './migrations.ts';
import { wideTables } from './wide-conformance.ts';
import { upsertConformance } from './upsert-conformance.ts';
import { rangeConformance } from './range-conformance.ts';

const url = process.env.LABLD_TEST_DATABASE_URL;
if (!url)
  throw new Error(
    'LABLD_TEST_DATABASE_URL is not set: the PostgreSQL suite needs a server (tools/postgres/server.sh)',
  );

/** Runs `work` on a connection of its own whose search path is `schema`. */
async function inSchema<T>(schema: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function namespace() {
  const schema = `test_datastore_${randomBytes(6).toString('hex')}`;
  return {
    schema,
    dispose: () => inSchema(schema, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)),
  };
}

const postgres: ConformanceEnvironment = {
  name: 'postgres',
  async fresh() {
    const { schema, dispose } = namespace();
    return { connect: () => openPostgresDatastore(url, schema), dispose: async () => void (await dispose()) };
  },
};
datastoreConformance(postgres);
rangeConformance(postgres);
wideTables(postgres);
upsertConformance(postgres);
// Every case again with two fields a table as columns: the others are read from `rest`.
const narrow: ConformanceEnvironment = {
  name: 'postgres, 2 columns and rest',
  async fresh() {
    const { schema, dispose } = namespace();
    return {
      connect: () => openPostgresDatastore(url, schema, undefined, 2),
      dispose: async () => void (await dispose()),
    };
  },
};
datastoreConformance(narrow);
rangeConformance(narrow);
upsertConformance(narrow);

datastoreMigrations({
  name: 'postgres',
  async fresh() {
    const { schema, dispose } = namespace();
    return {
      open: (migrations) => openPostgresDatastore(url, schema, migrations),
      sql: (text) => inSchema(schema, async (client) => (await client.query(text)).rows),
      dispose: async () => void (await dispose()),
    };
  },
});
