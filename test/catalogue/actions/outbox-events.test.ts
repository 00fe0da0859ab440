// The triple store's events of catalogue actions (outbox-events.ts) on the embedded store.
import { outboxEventsSuite } from './outbox-events.ts';
import { embeddedCatalogue } from './support.ts';

outboxEventsSuite('embedded (node:sqlite)', embeddedCatalogue);
