// CKAN clients' calls on PostgreSQL (LABLD_TEST_DATABASE_URL, started by .ci/run).
import { ckanClientSuite } from './ckan-clients.ts';
import { postgresCatalogue } from './support.ts';

ckanClientSuite('postgres', postgresCatalogue);
