// The triple store follows changes made on the pages (page-sync.ts) with the catalogue on
// PostgreSQL: a whole labld whose catalogue store and datastore are a database of its own.
import { startLabldOnPostgres } from '../support/labld-postgres.ts';
import { pageSyncSuite } from './page-sync.ts';

pageSyncSuite('PostgreSQL', () => startLabldOnPostgres('test_page_sync'));
