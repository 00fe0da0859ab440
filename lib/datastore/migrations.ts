// The datastore's own tables under versioned migrations: the steps of component `datastore`,
// recorded in a `schema_migrations` table as the catalogue's (component, version) and run by
// the runner both SQL stores use (lib/sql/migrate.ts) when a datastore opens. The table is in
// the datastore's database, beside the tables its versions describe: the file
// datastore.sqlite, or the datastore's PostgreSQL schema (a second datastore schema is
// migrated on its own). A released step is never edited; a change is a new step.
import { migrate, type Migration, type MigrationSession } from '../sql/migrate.ts';
import type { SqlClient, SqlDialect } from './sql-dialect.ts';

export type { Migration };

export const DATASTORE_COMPONENT = 'datastore';

export const DATASTORE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "datastore_tables: each resource's table and its fields",
    // IF NOT EXISTS: a datastore made before its steps were versioned has the table already.
    sql: `CREATE TABLE IF NOT EXISTS datastore_tables (
      resource_id TEXT PRIMARY KEY,
      table_name TEXT NOT NULL,
      fields TEXT NOT NULL
    )`,
  },
  {
    version: 2,
    name: 'datastore_tables.inline_columns: how many fields are columns of their own (null: all)',
    sql: 'ALTER TABLE datastore_tables ADD COLUMN inline_columns INTEGER',
  },
  {
    version: 3,
    name: 'datastore_tables.primary_key: the fields naming a row, a JSON list (null: none)',
    sql: 'ALTER TABLE datastore_tables ADD COLUMN primary_key TEXT',
  },
  {
    version: 4,
    name: "datastore_tables.version: changes with each write of the table's rows (totals are kept by it)",
    sql: 'ALTER TABLE datastore_tables ADD COLUMN version BIGINT',
  },
];

/** The datastore's client as the runner's session (its `?` numbered by the dialect). */
function sessionOf(client: SqlClient, dialect: SqlDialect): MigrationSession {
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => dialect.placeholder(++n));
  };
  return {
    dialect: dialect.name,
    all: (sql, params = []) => client.query(numbered(sql), [...params]),
    run: (sql, params = []) => client.run(numbered(sql), [...params]),
    exec: (sql) => client.exec(sql),
    transaction: (work) => client.transaction((tx) => work(sessionOf(tx, dialect))),
  };
}

/** Brings the datastore's tables to the latest step; returns that version. */
export function migrateDatastore(
  client: SqlClient,
  dialect: SqlDialect,
  migrations: readonly Migration[] = DATASTORE_MIGRATIONS,
): Promise<number> {
  return migrate(sessionOf(client, dialect), migrations, DATASTORE_COMPONENT);
}
