// The pages' authorization matrix on PostgreSQL (see pages-matrix.ts): a whole labld whose
// catalogue store and datastore are a database of their own on LABLD_TEST_DATABASE_URL's
// server, made for this file and dropped after.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_FILE } from '../../lib/catalogue/store/embedded.ts';
import { labldOnPostgres } from '../support/postgres-labld.ts';
import { pagesMatrix } from './pages-matrix.ts';

pagesMatrix('PostgreSQL', async () => {
  const labld = await labldOnPostgres('test_pages');
  return {
    ...labld,
    async stop() {
      // The pages ran on PostgreSQL: the embedded catalogue file was never made.
      assert.equal(existsSync(join(labld.dataDir, CATALOGUE_FILE)), false, 'no embedded catalogue');
      await labld.stop();
    },
  };
});
