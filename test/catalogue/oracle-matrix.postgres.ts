// The existence oracle matrix on PostgreSQL (see oracle-matrix.ts).
import { startLabldOnPostgres } from '../support/labld-postgres.ts';
import { oracleMatrix } from './oracle-matrix.ts';

oracleMatrix('PostgreSQL', () => startLabldOnPostgres('test_oracle'));
