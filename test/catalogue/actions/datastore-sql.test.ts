// datastore_search_sql and its hostile statements on the embedded store (node:sqlite).
import { datastoreSqlSuite } from './datastore-sql.ts';
import { embeddedCatalogue } from './support.ts';

datastoreSqlSuite('embedded (node:sqlite)', embeddedCatalogue);
