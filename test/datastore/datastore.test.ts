// The Datastore conformance and migration suites on the embedded store (node:sqlite): a data
// directory each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { openEmbeddedDatastore } from '../../lib/datastore/embedded.ts';
import { openDatastore, datastoreConfigFromEnv } from '../../lib/datastore/open.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { datastoreConformance, type ConformanceEnvironment } from './conformance.ts';
import { datastoreMigrations } from './migrations.ts';
import { wideTables } from './wide-conformance.ts';
import { upsertConformance } from './upsert-conformance.ts';
import { rangeConformance } from './range-conformance.ts';

const embedded: ConformanceEnvironment = {
  name: 'embedded',
  async fresh() {
    const dataDir = mkdtempSync(join(tmpdir(), 'labld-datastore-'));
    return {
      connect: () => openDatastore({ databaseUrl: '', dataDir }),
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
};
datastoreConformance(embedded);
rangeConformance(embedded);
wideTables(embedded);
upsertConformance(embedded);
// Every case again with two fields a table as columns: the others are read from `rest`.
const narrow: ConformanceEnvironment = {
  name: 'embedded, 2 columns and rest',
  async fresh() {
    const dataDir = mkdtempSync(join(tmpdir(), 'labld-datastore-'));
    return {
      connect: () => openEmbeddedDatastore(join(dataDir, 'datastore.sqlite'), undefined, 2),
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
};
datastoreConformance(narrow);
rangeConformance(narrow);
upsertConformance(narrow);

it('open: LABLD_DATABASE_URL empty is the embedded file; a server that does not answer is unreachable', async () => {
  assert.deepEqual(datastoreConfigFromEnv({ LABLD_DATA: '/d' }), { databaseUrl: '', dataDir: '/d' });
  const url = 'postgres://someone:secret@127.0.0.1:1/none';
  await assert.rejects(openDatastore({ databaseUrl: url, dataDir: tmpdir() }), (error: unknown) => {
    assert.ok(error instanceof DomainError && error.kind === 'unreachable');
    assert.doesNotMatch(error.message, /secret/);
    return true;
  });
});

datastoreMigrations({
  name: 'embedded',
  async fresh() {
    const dataDir = mkdtempSync(join(tmpdir(), 'labld-datastore-'));
    const file = join(dataDir, 'datastore.sqlite');
    return {
      open: (migrations) => openEmbeddedDatastore(file, migrations),
      async sql(text) {
        const db = new DatabaseSync(file);
        try {
          return db.prepare(text).all() as Record<string, unknown>[];
        } finally {
          db.close();
        }
      },
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
});
