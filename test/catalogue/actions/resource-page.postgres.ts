// labld_resource_page on PostgreSQL (LABLD_TEST_DATABASE_URL).
import { resourcePageSuite } from './resource-page.ts';
import { postgresCatalogue } from './support.ts';

resourcePageSuite('postgres', postgresCatalogue);
