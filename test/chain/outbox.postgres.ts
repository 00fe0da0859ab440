// The chain's outbox and step status on PostgreSQL (LABLD_TEST_DATABASE_URL, started by
// .ci/run), in schemas of their own, dropped after. Unset is a failure, not a skip.
import { postgresCatalogue } from '../catalogue/actions/support.ts';
import { outboxSuite } from './outbox-suite.ts';

outboxSuite('postgres', async () => {
  const catalogue = await postgresCatalogue();
  return { store: catalogue.deps.store, dispose: () => catalogue.dispose() };
});
