// The catalogue's verbs on its pages (verbs.ts) on PostgreSQL: a whole labld whose catalogue
// store and datastore are a database of their own on LABLD_TEST_DATABASE_URL's server.
import { startLabldOnPostgres } from '../support/labld-postgres.ts';
import { verbsSuite } from './verbs.ts';

verbsSuite('PostgreSQL', () => startLabldOnPostgres('test_verbs'));
