// Writes each service's request schema into schemas/ from lib/contracts (the one source),
// formatted as `npm run lint` wants it. Run after changing an operation's contract:
// `node tools/contracts.ts`; test/contracts checks that the files are in step.
import { writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { SERVICES } from '../lib/services.ts';
import { requestSchemaFile, requestSchemaText } from '../lib/contracts/requests.ts';

const dir = new URL('../schemas/', import.meta.url).pathname;
for (const service of SERVICES) {
  const file = `${dir}${requestSchemaFile(service)}`;
  const options = { ...(await prettier.resolveConfig(file)), filepath: file };
  writeFileSync(file, await prettier.format(requestSchemaText(service), options));
}
