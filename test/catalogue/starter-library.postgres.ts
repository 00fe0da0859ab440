// The starter mapping library on PostgreSQL (LABLD_TEST_DATABASE_URL): two processes, each with
// its own connection to one schema, make it at once; one dataset comes of it, with its files.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { ensureMappingLibrary } from '../../lib/catalogue/mapping-library.ts';
import { STARTER_DATASET, ensureStarterLibrary } from '../../lib/catalogue/starter-library.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { removeTempDir, tempDir } from '../support/temp.ts';

const url = process.env.LABLD_TEST_DATABASE_URL ?? '';

test('two processes making the starter library at once on PostgreSQL make one', async () => {
  if (!url) throw new Error('LABLD_TEST_DATABASE_URL is not set: start tools/postgres/server.sh and set it');
  const schema = `test_starter_${randomBytes(6).toString('hex')}`;
  const dataDir = tempDir('labld-starter-pg-');
  const first = await openCatalogueStore({ dataDir: '', databaseUrl: url, schema });
  const second = await openCatalogueStore({ dataDir: '', databaseUrl: url, schema });
  try {
    await ensureMappingLibrary(first, 'mappings');
    const make = (store: typeof first) =>
      ensureStarterLibrary(store, blobStoreIn(dataDir), { siteUrl: 'http://localhost:1', group: 'mappings' });
    assert.deepEqual((await Promise.all([make(first), make(second)])).sort(), ['made', 'there']);
    const found = await first.searchDatasets({ group: 'mappings', limit: 10 });
    assert.deepEqual(
      found.results.map((d) => d.name),
      [STARTER_DATASET],
    );
    assert.deepEqual(
      (await second.listResources(STARTER_DATASET)).map((r) => r.name),
      ['tensile-test-template.ttl', 'tensile-test-map.yaml'],
    );
  } finally {
    await first.close();
    await second.close();
    await removeTempDir(dataDir);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
});
