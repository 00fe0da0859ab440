// datastore_search_sql and its hostile statements on PostgreSQL (LABLD_TEST_DATABASE_URL).
import { datastoreSqlSuite } from './datastore-sql.ts';
import { postgresCatalogue } from './support.ts';

datastoreSqlSuite('postgres', postgresCatalogue);
