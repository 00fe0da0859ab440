// Shared by the Action API tests: a fresh catalogue (store, datastore, blobs) on the embedded
// database or on PostgreSQL, and the people of the authorization matrix with their API tokens.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { blobStoreIn } from '../../../lib/blobs/blob-store.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import type { CatalogueStore } from '../../../lib/catalogue/store/contract.ts';
import { openDatastore } from '../../../lib/datastore/open.ts';
import { openPostgresDatastore } from '../../../lib/datastore/postgres.ts';
import type { Datastore } from '../../../lib/datastore/contract.ts';
import { createToken } from '../../../lib/catalogue/auth/tokens.ts';
import { resolveViewer, type Viewer } from '../../../lib/catalogue/auth/actor.ts';
import type { ActionDeps } from '../../../lib/catalogue/actions/index.ts';
import type { User } from '../../../lib/catalogue/model.ts';
import type { DeadLetter } from '../../../lib/chain/index.ts';
import { DomainError } from '../../../lib/process/errors.ts';
import { ckanError } from '../../../gateways/kit/ckan-errors.ts';

export interface Catalogue {
  deps: ActionDeps;
  dataDir: string;
  /** Every table of the catalogue's and the datastore's databases, by name: a checksum of its rows. */
  tables(): Promise<Record<string, string>>;
  dispose(): Promise<void>;
}

export const SITE = 'http://labld.test';

/** A table of 40 rows: _id 1…40, name "n1"…, value 1.5 × i, kind "even"/"odd". */
export const FORTY_ROWS = Array.from({ length: 40 }, (_, k) => ({
  name: `n${k + 1}`,
  value: 1.5 * (k + 1),
  kind: (k + 1) % 2 === 0 ? 'even' : 'odd',
}));
export const FORTY_FIELDS = [
  { id: 'name', type: 'text' },
  { id: 'value', type: 'numeric' },
  { id: 'kind', type: 'text' },
];

/** On the embedded database in a fresh data directory. */
export async function embeddedCatalogue(): Promise<Catalogue> {
  const dataDir = mkdtempSync(join(tmpdir(), 'labld-actions-'));
  const store = await openCatalogueStore({ dataDir });
  const tables = async () => {
    const sums: Record<string, string> = {};
    for (const file of readdirSync(dataDir).filter((f) => f.endsWith('.sqlite'))) {
      const db = new DatabaseSync(join(dataDir, file), { readOnly: true });
      try {
        const names = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").all();
        for (const { name } of names as { name: string }[]) {
          sums[`${file}/${name}`] = checksum(
            db.prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`).all(),
          );
        }
      } finally {
        db.close();
      }
    }
    return sums;
  };
  return catalogueOf(
    dataDir,
    store,
    await openDatastore({ dataDir, databaseUrl: '' }),
    tables,
    async () => {},
  );
}

/** A table's rows as one hash, whatever their order. */
function checksum(rows: unknown[]): string {
  const lines = rows.map((row) =>
    JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
  );
  return createHash('sha256').update(lines.sort().join('\n')).digest('hex');
}

function catalogueOf(
  dataDir: string,
  store: CatalogueStore,
  datastore: Datastore,
  tables: () => Promise<Record<string, string>>,
  drop: () => Promise<void>,
): Catalogue {
  return {
    deps: { store, datastore, blobs: blobStoreIn(dataDir), siteUrl: SITE },
    dataDir,
    tables,
    async dispose() {
      await store.close();
      await datastore.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** On PostgreSQL (LABLD_TEST_DATABASE_URL), each catalogue in schemas of its own, dropped after. */
export async function postgresCatalogue(): Promise<Catalogue> {
  const url = process.env.LABLD_TEST_DATABASE_URL ?? '';
  if (!url) throw new Error('LABLD_TEST_DATABASE_URL is not set: start tools/postgres/server.sh and set it');
  const suffix = randomBytes(6).toString('hex');
  const schemas = [`test_actions_${suffix}`, `test_actions_ds_${suffix}`];
  const dataDir = mkdtempSync(join(tmpdir(), 'labld-actions-pg-'));
  const store = await openCatalogueStore({ dataDir, databaseUrl: url, schema: schemas[0] });
  const datastore = await openPostgresDatastore(url, schemas[1]);
  const tables = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const sums: Record<string, string> = {};
      const { rows } = await client.query<{ schema: string; name: string }>(
        'SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_schema = ANY($1)',
        [schemas],
      );
      for (const { schema, name } of rows) {
        sums[`${schema}/${name}`] = checksum(
          (await client.query(`SELECT * FROM "${schema}"."${name}"`)).rows,
        );
      }
      return sums;
    } finally {
      await client.end();
    }
  };
  return catalogueOf(dataDir, store, datastore, tables, async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  });
}

/** A dataset of `owner`'s named `name` with one resource (no table yet); the resource's id. */
export async function datasetWithResource(
  store: CatalogueStore,
  owner: Person,
  name: string,
  visibility: 'public' | 'private' = 'public',
): Promise<string> {
  const dataset = await store.createDataset({
    name,
    private: visibility === 'private',
    creator_user_id: owner.user.id,
  });
  return (
    await store.createResource(dataset.id, { name: `${name}.csv`, url: `https://example.org/${name}.csv` })
  ).id;
}

export interface Person {
  user: User;
  token: string;
  tokenHash: string;
}

/** A user with an API token. */
export async function person(store: CatalogueStore, name: string, sysadmin = false): Promise<Person> {
  const user = await store.createUser({
    name,
    fullname: name.toUpperCase(),
    email: `${name}@lab.test`,
    sysadmin,
  });
  const token = createToken();
  await store.createToken({ user_id: user.id, name: 'test', token_hash: token.hash });
  return { user, token: token.token, tokenHash: token.hash };
}

export async function viewerOf(store: CatalogueStore, who: Person | undefined): Promise<Viewer> {
  return resolveViewer(store, who ? { kind: 'token', hash: who.tokenHash } : { kind: 'anonymous' });
}

export interface Answer {
  status: number;
  body: { help?: string; success?: boolean; result?: any; error?: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** An Action API call over HTTP: POST with a JSON body (or `form`), or GET with query parameters. */
export async function api(
  base: string,
  action: string,
  options: {
    body?: unknown;
    query?: Record<string, string>;
    form?: FormData;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
  const post = options.body !== undefined || options.form !== undefined;
  const response = await fetch(`${base}/api/3/action/${action}${query}`, {
    method: post ? 'POST' : 'GET',
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.form
      ? { body: options.form }
      : options.body !== undefined
        ? { body: JSON.stringify(options.body) }
        : {}),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

/**
 * The datastore table the automation chain's import step made of an uploaded CSV, once it is
 * there (the chain runs after the upload's answer); fails after `timeoutMs`.
 */
export async function importedTable(
  base: string,
  resourceId: string,
  headers: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<Answer['body']['result']> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await api(base, 'datastore_search', { query: { resource_id: resourceId }, headers });
    if (found.status === 200) return found.body.result;
    if (Date.now() > until)
      throw new Error(`no datastore table for ${resourceId}: ${JSON.stringify(found.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A dead letter of a resource's annotate step in `run`, as the chain leaves one, for the tests that list and replay them. */
export function annotateDeadLetter(
  id: string,
  resource: { id: string; package_id: string },
  run: string,
  name: string,
): DeadLetter {
  return {
    id,
    package_id: resource.package_id,
    source_resource_id: resource.id,
    run,
    group: 'chain-annotate',
    topic: 'labld.chain.resource-uploaded',
    error: 'DomainError: file: not a table',
    attempts: 1,
    failed_at: new Date().toISOString(),
    key: resource.package_id,
    payload: { dataset_id: resource.package_id, resource_id: resource.id, run, name },
  };
}

type Dict = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The CKAN answer of a refused action call: its status and error dict (fails if it succeeded). */
export async function refused(promise: Promise<unknown>): Promise<{ status: number; error: Dict }> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const { status, body } = ckanError(error);
    return { status, error: body.error as Dict };
  }
  assert.fail('the call succeeded');
}
