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
        assert.deepEqual(versions(steps), ['datastore 1']);
        const again = await db.open();
        assert.equal((await again.info('r')).count, 1);
        await again.close();
        assert.deepEqual(await db.sql(STEPS), steps); // same rows, same applied_at: nothing re-ran
      }));

    it('a database at version 1 is migrated to 2 by a new step, once; older code refuses it', () =>
      withDatabase(async (db) => {
        await reopen(db);
        // No IF NOT EXISTS: running the step twice would fail.
        const next: Migration = {
          version: 2,
          name: 'a step of a later labld',
          sql: 'CREATE TABLE step_two (x INTEGER)',
        };
        const later = [...DATASTORE_MIGRATIONS, next];
        await reopen(db, later);
        assert.deepEqual(versions(await db.sql(STEPS)), ['datastore 1', 'datastore 2']);
        const [made] = await db.sql('SELECT count(*) AS n FROM step_two'); // the step's table is there
        assert.equal(Number(made?.n), 0);
        await reopen(db, later);
        assert.deepEqual(versions(await db.sql(STEPS)), ['datastore 1', 'datastore 2']);
        await assert.rejects(
          db.open(),
          /datastore database is at schema version 2, newer than this labld knows \(1\)/,
        );
      }));

    it('a datastore made before its steps were versioned keeps its tables and is recorded at 1', () =>
      withDatabase(async (db) => {
        const store = await db.open();
        await store.create('kept', [{ id: 'x', type: 'text' }], [{ x: 'a' }, { x: 'b' }]);
        await store.close();
        await db.sql('DROP TABLE schema_migrations'); // as the unversioned datastore left it
        const reopened = await db.open();
        assert.equal((await reopened.info('kept')).count, 2);
        await reopened.close();
        assert.deepEqual(versions(await db.sql(STEPS)), ['datastore 1']);
      }));
  });
}
