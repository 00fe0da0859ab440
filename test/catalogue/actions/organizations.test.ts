// Organizations through the Action API on the embedded store (node:sqlite).
import { organizationSuite } from './organizations.ts';
import { embeddedCatalogue } from './support.ts';

organizationSuite('embedded (node:sqlite)', embeddedCatalogue);
