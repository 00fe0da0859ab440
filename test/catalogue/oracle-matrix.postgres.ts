// The existence oracle matrix on PostgreSQL (see oracle-matrix.ts).
import { labldOnPostgres } from '../support/postgres-labld.ts';
import { oracleMatrix } from './oracle-matrix.ts';

oracleMatrix('PostgreSQL', () => labldOnPostgres('test_oracle'));
