// The versioned schema migration runner of labld's SQL stores (the catalogue, the datastore),
// on SQLite and PostgreSQL alike. Each step is numbered and written once: shared SQL where the
// two dialects agree, one text per dialect where they do not; a released step is never edited
// (a change is a new step). `schema_migrations` records the steps applied per component, so
// that several components keep their steps in one database.

export interface Migration {
  version: number;
  name: string;
  sql: string | { sqlite: string; postgres: string };
}

/** What the runner needs of a database: a transaction with `?` placeholders. */
export interface MigrationSession {
  readonly dialect: 'sqlite' | 'postgres';
  all(sql: string, params?: readonly (string | number | null)[]): Promise<Record<string, unknown>[]>;
  run(sql: string, params?: readonly (string | number | null)[]): Promise<number>;
  exec(sql: string): Promise<void>;
  transaction<T>(work: (tx: MigrationSession) => Promise<T>): Promise<T>;
}

/**
 * Brings `component`'s schema to its latest step; a schema newer than this code refuses to
 * open. Idempotent.
 */
export async function migrate(
  session: MigrationSession,
  migrations: readonly Migration[],
  component: string,
): Promise<number> {
  const latest = Math.max(...migrations.map((m) => m.version));
  return session.transaction(async (tx) => {
    // Two processes opening one PostgreSQL database at once: the second waits for the first's
    // steps (SQLite's BEGIN IMMEDIATE already holds the write lock).
    if (tx.dialect === 'postgres') await tx.all(`SELECT pg_advisory_xact_lock(7215013)`);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      component TEXT NOT NULL,
      version INTEGER NOT NULL,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL,
      PRIMARY KEY (component, version)
    )`);
    const [row] = await tx.all(`SELECT MAX(version) AS version FROM schema_migrations WHERE component = ?`, [
      component,
    ]);
    const current = Number(row?.version ?? 0);
    if (current > latest) {
      throw new Error(
        `the ${component} database is at schema version ${current}, newer than this labld knows (${latest}): ` +
          'run a newer labld on it, or point LABLD_DATABASE_URL / LABLD_DATA elsewhere',
      );
    }
    for (const step of [...migrations].sort((a, b) => a.version - b.version)) {
      if (step.version <= current) continue;
      await tx.exec(typeof step.sql === 'string' ? step.sql : step.sql[tx.dialect]);
      await tx.run(
        `INSERT INTO schema_migrations (component, version, name, applied_at) VALUES (?, ?, ?, ?)`,
        [component, step.version, step.name, new Date().toISOString()],
      );
    }
    return latest;
  });
}
