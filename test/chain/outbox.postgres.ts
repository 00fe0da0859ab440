// The chain's outbox and step status on PostgreSQL (LABLD_TEST_DATABASE_URL, started by
// .ci/run), in schemas of their own, dropped after. Unset is a failure, not a skip.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { postgresCatalogue } from '../catalogue/actions/support.ts';
import { outboxSuite, relayTurnsTest } from './outbox-suite.ts';

outboxSuite('postgres', async () => {
  const catalogue = await postgresCatalogue();
  return { store: catalogue.deps.store, dispose: () => catalogue.dispose() };
});

relayTurnsTest('postgres', async () => {
  const url = process.env.LABLD_TEST_DATABASE_URL ?? '';
  assert.ok(url, 'LABLD_TEST_DATABASE_URL is set');
  const schema = `test_outbox_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'labld-outbox-pg-'));
  // Two catalogue-requests replicas: two stores (connection pools) on the same tables.
  const a = await openCatalogueStore({ dataDir, databaseUrl: url, schema });
  const b = await openCatalogueStore({ dataDir, databaseUrl: url, schema });
  return {
    a,
    b,
    async dispose() {
      await a.close();
      await b.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
