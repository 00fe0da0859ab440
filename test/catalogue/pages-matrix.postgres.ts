// The pages' authorization matrix on PostgreSQL (see pages-matrix.ts): a whole labld whose
// catalogue store and datastore are a database of their own on LABLD_TEST_DATABASE_URL's
// server, made for this file and dropped after.
import { startLabldOnPostgres } from '../support/labld-postgres.ts';
import { pagesMatrix } from './pages-matrix.ts';

pagesMatrix('PostgreSQL', () => startLabldOnPostgres('test_pages'));
