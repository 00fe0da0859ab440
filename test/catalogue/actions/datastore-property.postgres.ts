// Random bodies for the datastore actions of issue 26 on PostgreSQL (LABLD_TEST_DATABASE_URL).
import { datastorePropertySuite } from './datastore-property.ts';
import { postgresCatalogue } from './support.ts';

datastorePropertySuite('postgres', postgresCatalogue);
