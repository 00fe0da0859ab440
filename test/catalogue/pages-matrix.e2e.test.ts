// The pages' authorization matrix on the embedded store (see pages-matrix.ts).
import { startLabld } from '../support/labld.ts';
import { pagesMatrix } from './pages-matrix.ts';

pagesMatrix('embedded store', startLabld);
