// The Action API's authorization matrix on the embedded store (node:sqlite).
import { actionMatrix } from './matrix.ts';
import { embeddedCatalogue } from './support.ts';

actionMatrix('embedded (node:sqlite)', embeddedCatalogue);
