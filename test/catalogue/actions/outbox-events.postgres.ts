// The triple store's events of catalogue actions (outbox-events.ts) on PostgreSQL.
import { outboxEventsSuite } from './outbox-events.ts';
import { postgresCatalogue } from './support.ts';

outboxEventsSuite('postgres', postgresCatalogue);
