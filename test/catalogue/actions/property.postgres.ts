// The Action API property on PostgreSQL (LABLD_TEST_DATABASE_URL, started by .ci/run).
import { actionProperty } from './property.ts';
import { postgresCatalogue } from './support.ts';

actionProperty('postgres', postgresCatalogue);
