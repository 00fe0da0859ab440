// Wide tables through a whole labld on PostgreSQL (wide-table.ts).
import { startLabldOnPostgres } from '../support/labld-postgres.ts';
import { wideTablesThroughLabld } from './wide-table.ts';

wideTablesThroughLabld('PostgreSQL', () => startLabldOnPostgres('test_wide'));
