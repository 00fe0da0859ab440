// The Action API property on the embedded store (node:sqlite).
import { actionProperty } from './property.ts';
import { embeddedCatalogue } from './support.ts';

actionProperty('embedded (node:sqlite)', embeddedCatalogue);
