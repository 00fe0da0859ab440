// The datastore's own tables under versioned migrations (component `datastore` in
// `schema_migrations`), the same tests on each database: each implementation's test file
// supplies fresh, empty databases it can also query directly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Datastore } from '../../lib/datastore/contract.ts';
import { DATASTORE_MIGRATIONS, type Migration } from '../../lib/datastore/migrations.ts';

export interface MigrationDatabase {
  /** The datastore on this database, its steps `migrations` (default: the released ones). */
  open(migrations?: readonly Migration[]): Promise<Datastore>;
  /** One statement straight on the database, in the datastore's namespace; its rows. */
  sql(text: string): Promise<Record<string, unknown>[]>;
  dispose(): Promise<void>;
}

export interface MigrationEnvironment {
  name: string;
  fresh(): Promise<MigrationDatabase>;
}

const STEPS =
  'SELECT component, version, name, applied_at FROM schema_migrations ORDER BY component, version';
const versions = (rows: Record<string, unknown>[]) =>
  rows.map((r) => `${String(r.component)} ${Number(r.version)}`);
/** `datastore 1` … up to `last`. */
const recorded = (last: number) => Array.from({ length: last }, (_, i) => `datastore ${i + 1}`);
const LATEST = DATASTORE_MIGRATIONS.length;

export function datastoreMigrations(env: MigrationEnvironment): void {
  describe(`Datastore migrations (${env.name})`, () => {
    const withDatabase = async (test: (db: MigrationDatabase) => Promise<void>) => {
      const db = await env.fresh();
      try {
        await test(db);
      } finally {
        await db.dispose();
      }
    };
    const reopen = async (db: MigrationDatabase, migrations?: readonly Migration[]) =>
      (await db.open(migrations)).close();

    it('opening an empty database brings it to the latest step; opening again changes nothing', () =>
      withDatabase(async (db) => {
        const store = await db.open();
        await store.create('r', [{ id: 'x', type: 'int' }], [{ x: 1 }]);
        await store.close();
        const steps = await db.sql(STEPS);
        assert.deepEqual(versions(steps), recorded(LATEST));
        const again = await db.open();
        assert.equal((await again.info('r')).count, 1);
        await again.close();
        assert.deepEqual(await db.sql(STEPS), steps); // same rows, same applied_at: nothing re-ran
      }));

    it('a database at the latest version is migrated by a new step, once; older code refuses it', () =>
      withDatabase(async (db) => {
        await reopen(db);
        // No IF NOT EXISTS: running the step twice would fail.
        const next: Migration = {
          version: LATEST + 1,
          name: 'a step of a later labld',
          sql: 'CREATE TABLE step_two (x INTEGER)',
        };
        const later = [...DATASTORE_MIGRATIONS, next];
        await reopen(db, later);
        assert.deepEqual(versions(await db.sql(STEPS)), recorded(LATEST + 1));
        const [made] = await db.sql('SELECT count(*) AS n FROM step_two'); // the step's table is there
        assert.equal(Number(made?.n), 0);
        await reopen(db, later);
        assert.deepEqual(versions(await db.sql(STEPS)), recorded(LATEST + 1));
        await assert.rejects(
          db.open(),
          new RegExp(
            `datastore database is at schema version ${LATEST + 1}, newer than this labld knows \\(${LATEST}\\)`,
          ),
        );
      }));

    it('a datastore made before its steps were versioned keeps its tables and is brought to the latest', () =>
      withDatabase(async (db) => {
        const store = await db.open();
        await store.create('kept', [{ id: 'x', type: 'text' }], [{ x: 'a' }, { x: 'b' }]);
        await store.close();
        // As the unversioned datastore left it: no record of steps, no column of steps 2 to 4.
        await db.sql('DROP TABLE schema_migrations');
        await db.sql('ALTER TABLE datastore_tables DROP COLUMN inline_columns');
        await db.sql('ALTER TABLE datastore_tables DROP COLUMN primary_key');
        await db.sql('ALTER TABLE datastore_tables DROP COLUMN version');
        const reopened = await db.open();
        assert.equal((await reopened.info('kept')).count, 2);
        const found = await reopened.search({ resource_id: 'kept', sort: 'x desc' });
        assert.deepEqual(
          found.records.map((r) => r.x),
          ['b', 'a'],
        );
        await reopened.close();
        assert.deepEqual(versions(await db.sql(STEPS)), recorded(LATEST));
      }));
  });
}
