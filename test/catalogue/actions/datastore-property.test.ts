// Random bodies for the datastore actions of issue 26 on the embedded store (node:sqlite).
import { datastorePropertySuite } from './datastore-property.ts';
import { embeddedCatalogue } from './support.ts';

datastorePropertySuite('embedded (node:sqlite)', embeddedCatalogue);
