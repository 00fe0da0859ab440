// The catalogue store conformance suite on the embedded store: each test gets its own data directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { CATALOGUE_FILE } from '../../lib/catalogue/store/embedded.ts';
import { catalogueStoreConformance, namespaceOf } from './store-conformance.ts';

catalogueStoreConformance({
  name: 'embedded (node:sqlite)',
  async fresh() {
    const dataDir = mkdtempSync(join(tmpdir(), 'labld-catalogue-'));
    return namespaceOf(
      () => openCatalogueStore({ dataDir }),
      async (version) => {
        const db = new DatabaseSync(join(dataDir, CATALOGUE_FILE));
        db.prepare(
          `INSERT INTO schema_migrations (component, version, name, applied_at) VALUES ('catalogue', ?, 'future', '')`,
        ).run(version);
        db.close();
      },
      async () => rmSync(dataDir, { recursive: true, force: true }),
    );
  },
});
