// Versioned schema migrations of the catalogue, run when a store opens by lib/sql/migrate.ts:
// shared SQL where SQLite and PostgreSQL agree (TEXT times in ISO 8601 sort as they should in
// both), one text per dialect where they do not. A step, once released, is never edited — a
// change is a new step.
import { migrate, type Migration } from '../../../sql/migrate.ts';
import type { SqlSession } from './session.ts';

export const COMPONENT = 'catalogue';

/** The columns of chain_step_status, whose states are checked against `states`. */
const stepStatusColumns = (states: string) => `
    source_resource_id TEXT NOT NULL,
    step TEXT NOT NULL,
    package_id TEXT NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
    state TEXT NOT NULL CHECK (state IN (${states})),
    run TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    progress TEXT,
    summary TEXT,
    error TEXT,
    queued_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    PRIMARY KEY (source_resource_id, step)
  `;

const STEP_STATES = `'queued', 'running', 'done', 'failed'`;
/** Migration 10's states: select-mapping with no mapping waits as needs-mapping (lib/chain/status.ts). */
const STEP_STATES_10 = `${STEP_STATES}, 'needs-mapping'`;
const STEP_STATUS_INDEX = `CREATE INDEX chain_step_status_by_package ON chain_step_status (package_id);`;

/** One row per source resource and chain step: its last run's state (lib/chain/status.ts). */
const STEP_STATUS = `
  CREATE TABLE chain_step_status (${stepStatusColumns(STEP_STATES)});
  ${STEP_STATUS_INDEX}
`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'datasets, resources, groups, users, roles, tokens',
    sql: `
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        fullname TEXT NOT NULL DEFAULT '',
        email TEXT NOT NULL DEFAULT '',
        sysadmin BOOLEAN NOT NULL DEFAULT FALSE,
        password_hash TEXT,
        created TEXT NOT NULL
      );
      CREATE TABLE packages (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL DEFAULT '',
        notes TEXT NOT NULL DEFAULT '',
        private BOOLEAN NOT NULL DEFAULT FALSE,
        creator_user_id TEXT REFERENCES users (id) ON DELETE SET NULL,
        metadata_created TEXT NOT NULL,
        metadata_modified TEXT NOT NULL
      );
      CREATE TABLE resources (
        id TEXT PRIMARY KEY,
        package_id TEXT NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        format TEXT NOT NULL DEFAULT '',
        url TEXT NOT NULL DEFAULT '',
        url_type TEXT NOT NULL CHECK (url_type IN ('upload', 'link')),
        size BIGINT,
        hash TEXT NOT NULL DEFAULT '',
        mimetype TEXT NOT NULL DEFAULT '',
        created TEXT NOT NULL,
        last_modified TEXT NOT NULL,
        blob_key TEXT,
        creator_user_id TEXT REFERENCES users (id) ON DELETE SET NULL,
        had_primary_source TEXT,
        was_generated_by TEXT,
        derived_from TEXT,
        derivation_step TEXT,
        UNIQUE (package_id, derived_from, derivation_step)
      );
      CREATE INDEX resources_by_package ON resources (package_id, position);
      CREATE INDEX resources_by_source ON resources (derived_from);
      CREATE TABLE groups (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        created TEXT NOT NULL
      );
      CREATE TABLE group_members (
        group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
        package_id TEXT NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
        PRIMARY KEY (group_id, package_id)
      );
      CREATE INDEX group_members_by_package ON group_members (package_id);
      CREATE TABLE memberships (
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        package_id TEXT NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('reader', 'editor', 'admin')),
        PRIMARY KEY (user_id, package_id)
      );
      CREATE INDEX memberships_by_package ON memberships (package_id);
      CREATE TABLE api_tokens (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created TEXT NOT NULL,
        last_used TEXT
      );
      CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
    `,
  },
  {
    version: 2,
    name: 'browser sessions',
    sql: `
      CREATE TABLE sessions (
        session_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created TEXT NOT NULL,
        expires TEXT NOT NULL
      );
      CREATE INDEX sessions_by_user ON sessions (user_id);
    `,
  },
  {
    version: 3,
    name: 'chain outbox and step status',
    // The outbox keeps the events of a catalogue change in the change's own transaction, until
    // the relay has published them (consumers/outbox.ts); its sequence keeps their order.
    sql: {
      sqlite: `
        CREATE TABLE chain_outbox (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          event TEXT NOT NULL,
          event_key TEXT NOT NULL,
          payload TEXT NOT NULL,
          created TEXT NOT NULL
        );
        ${STEP_STATUS}`,
      postgres: `
        CREATE TABLE chain_outbox (
          seq BIGSERIAL PRIMARY KEY,
          event TEXT NOT NULL,
          event_key TEXT NOT NULL,
          payload TEXT NOT NULL,
          created TEXT NOT NULL
        );
        ${STEP_STATUS}`,
    },
  },
  {
    version: 4,
    name: 'chain dead letters',
    // What the chain's dead-letter topics hold, kept where the pages can list it by dataset
    // (lib/chain/dead-letters.ts); a replay removes its row. The id is the dead letter's place
    // on its topic, so a redelivered dead letter is kept once.
    sql: `
      CREATE TABLE chain_dead_letters (
        id TEXT PRIMARY KEY,
        package_id TEXT NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
        source_resource_id TEXT NOT NULL,
        run TEXT NOT NULL,
        consumer_group TEXT NOT NULL,
        topic TEXT NOT NULL,
        error TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        failed_at TEXT NOT NULL,
        event_key TEXT,
        payload TEXT NOT NULL
      );
      CREATE INDEX chain_dead_letters_by_package ON chain_dead_letters (package_id);
    `,
  },
  {
    version: 5,
    name: 'handled requests',
    // A request redelivered by the bus (its offset commit lost) must not write twice: its id is
    // kept with its writes, in their transaction, and with the answer it got, which a repeat
    // answers again (sql/requests.ts).
    sql: `
      CREATE TABLE handled_requests (
        request_id TEXT PRIMARY KEY,
        operation TEXT NOT NULL,
        result TEXT,
        handled_at TEXT NOT NULL
      );
      CREATE INDEX handled_requests_by_time ON handled_requests (handled_at);
    `,
  },
  {
    version: 6,
    name: 'chain outbox lease',
    // SQLite: the relay holding the outbox is named in a row with an expiry, so that it publishes
    // outside any transaction (SQLite has one write lock per file, and a publish to Kafka can
    // take seconds). PostgreSQL's relays take an advisory lock instead (sql/chain.ts).
    sql: {
      sqlite: `
        CREATE TABLE chain_outbox_lease (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          holder TEXT NOT NULL,
          expires TEXT NOT NULL
        );
      `,
      postgres: `SELECT 1`,
    },
  },
  {
    version: 7,
    name: 'idempotency keys',
    // A client's Idempotency-Key, kept with the writes of the request it came with and in their
    // transaction (sql/requests.ts), so that an upload committed before a crash, its answer
    // lost, answers the client's retry after the restart instead of being made twice.
    sql: `
      CREATE TABLE idempotency_keys (
        idempotency_key TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL,
        result TEXT,
        expires_at TEXT NOT NULL
      );
      CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
    `,
  },
  {
    version: 8,
    name: 'dataset metadata CKAN scripts send',
    // author … license_id as CKAN keeps them on the package; free tags and extras in tables of
    // their own (sql/metadata.ts), because package_search filters and counts by them.
    sql: `
      ALTER TABLE packages ADD COLUMN author TEXT NOT NULL DEFAULT '';
      ALTER TABLE packages ADD COLUMN author_email TEXT NOT NULL DEFAULT '';
      ALTER TABLE packages ADD COLUMN maintainer TEXT NOT NULL DEFAULT '';
      ALTER TABLE packages ADD COLUMN maintainer_email TEXT NOT NULL DEFAULT '';
      ALTER TABLE packages ADD COLUMN version TEXT NOT NULL DEFAULT '';
      ALTER TABLE packages ADD COLUMN url TEXT NOT NULL DEFAULT '';
      ALTER TABLE packages ADD COLUMN license_id TEXT NOT NULL DEFAULT '';
      CREATE TABLE package_tags (
        package_id TEXT NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        PRIMARY KEY (package_id, name)
      );
      CREATE INDEX package_tags_by_name ON package_tags (name);
      CREATE TABLE package_extras (
        package_id TEXT NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (package_id, key)
      );
    `,
  },
  {
    version: 9,
    name: 'organizations',
    // CKAN's organizations: a dataset has at most one owner (packages.owner_org), and a member's
    // role in the organization reaches every dataset it owns. Deleting one leaves its datasets
    // unowned, as CKAN does where unowned datasets are allowed.
    sql: `
      CREATE TABLE organizations (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        image_url TEXT NOT NULL DEFAULT '',
        created TEXT NOT NULL
      );
      CREATE TABLE organization_members (
        organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('reader', 'editor', 'admin')),
        PRIMARY KEY (organization_id, user_id)
      );
      CREATE INDEX organization_members_by_user ON organization_members (user_id);
      ALTER TABLE packages ADD COLUMN owner_org TEXT REFERENCES organizations (id) ON DELETE SET NULL;
      CREATE INDEX packages_by_owner_org ON packages (owner_org);
    `,
  },
  {
    version: 10,
    name: 'step state needs-mapping',
    // SQLite cannot change a CHECK in place: the table is made again with the same columns
    // (nothing refers to it); PostgreSQL names the column's check `<table>_<column>_check`.
    sql: {
      sqlite: `
        CREATE TABLE chain_step_status_10 (${stepStatusColumns(STEP_STATES_10)});
        INSERT INTO chain_step_status_10 SELECT * FROM chain_step_status;
        DROP TABLE chain_step_status;
        ALTER TABLE chain_step_status_10 RENAME TO chain_step_status;
        ${STEP_STATUS_INDEX}`,
      postgres: `
        ALTER TABLE chain_step_status DROP CONSTRAINT chain_step_status_state_check;
        ALTER TABLE chain_step_status ADD CONSTRAINT chain_step_status_state_check
          CHECK (state IN (${STEP_STATES_10}));`,
    },
  },
];

export const LATEST = Math.max(...MIGRATIONS.map((m) => m.version));

/** Brings the catalogue's schema to LATEST; a schema newer than this code refuses to open. Idempotent. */
export function migrateCatalogue(session: SqlSession): Promise<number> {
  return migrate(session, MIGRATIONS, COMPONENT);
}
