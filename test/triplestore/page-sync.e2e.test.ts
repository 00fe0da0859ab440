// The triple store follows changes made on the pages (page-sync.ts) on the embedded stores.
import { startLabld } from '../support/labld.ts';
import { pageSyncSuite } from './page-sync.ts';

pageSyncSuite('embedded', () => startLabld());
