// Runs one of this folder's ckanapi scripts with the python of LABLD_CKANAPI_PYTHON (.ci/run's
// venv; unset, the suite fails rather than skips) and reads the one JSON object it prints.
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../../support/labld.ts';
import { person } from '../actions/support.ts';
import { runClient } from '../../support/python.ts';

export async function runCkanapiScript(
  name: string,
  args: string[],
): Promise<Record<string, any>> /* eslint-disable-line @typescript-eslint/no-explicit-any */ {
  const python = process.env.LABLD_CKANAPI_PYTHON ?? '';
  if (!python)
    throw new Error('LABLD_CKANAPI_PYTHON is not set: a python with ckanapi installed (see .ci/run)');
  const script = new URL(`./${name}`, import.meta.url).pathname;
  const stdout = await runClient(python, [script, ...args], { what: `ckanapi script ${name}` });
  return JSON.parse(stdout) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A labld for a script, with a user `scientist` and their API token. */
export async function labldWithScientist(): Promise<{ labld: Running & { dataDir: string }; token: string }> {
  const labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  const scientist = await person(store, 'scientist');
  await store.close();
  return { labld, token: scientist.token };
}
