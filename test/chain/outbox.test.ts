// The chain's outbox and step status on the embedded catalogue store.
import { embeddedCatalogue } from '../catalogue/actions/support.ts';
import { outboxSuite } from './outbox-suite.ts';

outboxSuite('embedded (node:sqlite)', async () => {
  const catalogue = await embeddedCatalogue();
  return { store: catalogue.deps.store, dispose: () => catalogue.dispose() };
});
