// Writes each service's request schema into schemas/ from lib/contracts (the one source),
// formatted as `npm run lint` wants it. Run after changing an operation's contract:
// `node tools/contracts.ts`; test/contracts checks that the files are in step.
import { writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { SERVICES } from '../lib/services.ts';
import { requestSchemaFile, requestSchemaText } from '../lib/contracts/requests.ts';
import { CATALOGUE_REQUEST_FILE, catalogueRequestSchemaText } from '../lib/contracts/catalogue.ts';
import {
  LOAD_EVENT_FILE,
  SPARQL_REQUEST_FILE,
  loadEventSchemaText,
  sparqlRequestSchemaText,
} from '../lib/contracts/triplestore.ts';
import { chainSchemaFiles } from '../lib/contracts/chain.ts';

const dir = new URL('../schemas/', import.meta.url).pathname;
const files: [string, string][] = [
  ...SERVICES.map((service): [string, string] => [requestSchemaFile(service), requestSchemaText(service)]),
  [CATALOGUE_REQUEST_FILE, catalogueRequestSchemaText()],
  [LOAD_EVENT_FILE, loadEventSchemaText()],
  [SPARQL_REQUEST_FILE, sparqlRequestSchemaText()],
  ...chainSchemaFiles(),
];
for (const [name, text] of files) {
  const file = `${dir}${name}`;
  const options = { ...(await prettier.resolveConfig(file)), filepath: file };
  writeFileSync(file, await prettier.format(text, options));
}
