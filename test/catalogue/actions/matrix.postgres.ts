// The Action API's authorization matrix on PostgreSQL (LABLD_TEST_DATABASE_URL, started by
// .ci/run); unset or unreachable, every case fails rather than skips.
import { actionMatrix } from './matrix.ts';
import { postgresCatalogue } from './support.ts';

actionMatrix('postgres', postgresCatalogue);
