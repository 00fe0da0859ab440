// The existence oracle matrix on the embedded store (see oracle-matrix.ts).
import { startLabld } from '../support/labld.ts';
import { oracleMatrix } from './oracle-matrix.ts';

oracleMatrix('embedded store', startLabld);
