// The catalogue's verbs on its pages (verbs.ts) on the embedded stores.
import { startLabld } from '../support/labld.ts';
import { verbsSuite } from './verbs.ts';

verbsSuite('embedded', () => startLabld());
