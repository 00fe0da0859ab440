// Wide tables through a whole labld on the embedded stores (wide-table.ts).
import { startLabld } from '../support/labld.ts';
import { wideTablesThroughLabld } from './wide-table.ts';

wideTablesThroughLabld('embedded', async () => ({ ...(await startLabld()), databaseUrl: '' }));
