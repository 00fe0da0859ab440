// The chain's outbox and step status on the embedded catalogue store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { outboxSuite } from './outbox-suite.ts';

outboxSuite('embedded (node:sqlite)', async () => {
  const store = await openCatalogueStore({ dataDir: mkdtempSync(join(tmpdir(), 'labld-outbox-')) });
  return { store, dispose: () => store.close() };
});
