// Organizations through the Action API on PostgreSQL (LABLD_TEST_DATABASE_URL, started by .ci/run).
import { organizationSuite } from './organizations.ts';
import { postgresCatalogue } from './support.ts';

organizationSuite('postgres', postgresCatalogue);
