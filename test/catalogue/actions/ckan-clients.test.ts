// CKAN clients' calls on the embedded store (node:sqlite).
import { ckanClientSuite } from './ckan-clients.ts';
import { embeddedCatalogue } from './support.ts';

ckanClientSuite('embedded (node:sqlite)', embeddedCatalogue);
