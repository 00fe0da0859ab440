// The pages' authorization matrix on PostgreSQL (see pages-matrix.ts): a whole labld whose
// catalogue store and datastore are a database of their own on LABLD_TEST_DATABASE_URL's
// server, made for this file and dropped after.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { CATALOGUE_FILE } from '../../lib/catalogue/store/embedded.ts';
import { startLabld } from '../support/labld.ts';
import { pagesMatrix } from './pages-matrix.ts';

pagesMatrix('PostgreSQL', async () => {
  const server = process.env['LABLD_TEST_DATABASE_URL'] ?? '';
  if (!server)
    throw new Error('LABLD_TEST_DATABASE_URL is not set: start tools/postgres/server.sh and set it');
  const database = `test_pages_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${database}`;
  const saved = process.env['LABLD_DATABASE_URL'];
  process.env['LABLD_DATABASE_URL'] = url.toString();
  const labld = await startLabld();
  return {
    url: labld.url,
    dataDir: labld.dataDir,
    async stop() {
      // The pages ran on PostgreSQL: the embedded catalogue file was never made.
      assert.equal(existsSync(join(labld.dataDir, CATALOGUE_FILE)), false, 'no embedded catalogue');
      await labld.stop();
      if (saved === undefined) delete process.env['LABLD_DATABASE_URL'];
      else process.env['LABLD_DATABASE_URL'] = saved;
      const cleanup = new pg.Client({ connectionString: server });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await cleanup.end();
    },
  };
});
