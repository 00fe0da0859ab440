// labld_resource_page on the embedded store (node:sqlite).
import { resourcePageSuite } from './resource-page.ts';
import { embeddedCatalogue } from './support.ts';

resourcePageSuite('embedded (node:sqlite)', embeddedCatalogue);
