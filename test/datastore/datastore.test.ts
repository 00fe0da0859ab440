// The Datastore conformance suite on the embedded store (node:sqlite): a data directory each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatastore } from '../../lib/datastore/open.ts';
import { datastoreConformance } from './conformance.ts';

datastoreConformance({
  name: 'embedded',
  async fresh() {
    const dataDir = mkdtempSync(join(tmpdir(), 'labld-datastore-'));
    return {
      connect: () => openDatastore({ databaseUrl: '', dataDir }),
      dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  },
});
