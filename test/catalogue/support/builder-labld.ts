// A whole labld for the mapping builder's tests (issue 28): a library dataset holding the seed's
// DIN EN ISO 527-3 template (a Turtle file the builder offers), and the seed CSV uploaded while
// the library has no mapping, waiting in "needs a mapping". `maker` edits the library dataset;
// `reader` only reads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startLabld, type Running } from '../../support/labld.ts';
import { readSeed, seedFixture } from '../../support/shared.ts';
import { stateOf, stepsWhen as waitForSteps, type Step } from '../../support/steps.ts';
import { api } from '../actions/support.ts';
import { seedPeople } from './people.ts';
import { jarsOf, type CookieJar } from './login.ts';
import type { Person } from '../actions/support.ts';

export { stateOf };

type Dict = Record<string, unknown>;

export interface BuilderLabld {
  labld: Running & { dataDir: string };
  people: Map<string, Person>;
  jars: Map<'maker' | 'reader', CookieJar>;
  /** The waiting CSV's resource id (dataset `tensile`). */
  csv: string;
  /** An action as the datasets' owner; its result. */
  call(action: string, body: Dict): Promise<Dict>;
  /** The steps of a source once `done` says they have come far enough. */
  stepsWhen(id: string, done: (steps: Step[]) => boolean): Promise<Step[]>;
}

export const PASSWORD = 'mappings are made by hand here';

export async function startBuilderLabld(): Promise<BuilderLabld> {
  const labld = await startLabld();
  const people = await seedPeople(labld.dataDir, ['maker', 'reader'], PASSWORD);
  const owner = people.get('owner')!;
  const call = async (action: string, body: Dict): Promise<Dict> => {
    const answer = await api(labld.url, action, { body, headers: { authorization: owner.token } });
    assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body)}`);
    return answer.body.result as Dict;
  };
  const upload = async (dataset: string, text: string | Buffer, name: string): Promise<string> => {
    const form = new FormData();
    form.set('package_id', dataset);
    form.set('upload', new Blob([text]), name);
    const made = await api(labld.url, 'resource_create', { form, headers: { authorization: owner.token } });
    assert.equal(made.status, 200, JSON.stringify(made.body.error));
    return made.body.result.id as string;
  };
  const stepsWhen = (id: string, done: (steps: Step[]) => boolean) => waitForSteps(call, id, done);
  await call('package_create', { name: 'library', title: 'Mapping library' });
  await call('member_create', { id: 'mappings', object: 'library', object_type: 'package' });
  await call('package_collaborator_create', { id: 'library', user_id: 'maker', capacity: 'editor' });
  const template = 'DIN_EN_ISO_527-3.drawio.ttl';
  await upload('library', readSeed(`maptomethod/templates/${template}`), template);
  await call('package_create', { name: 'tensile', title: 'Tensile tests' });
  const csv = await upload('tensile', readFileSync(seedFixture('csvtocsvw/example.csv')), 'example.csv');
  await stepsWhen(csv, (s) => stateOf(s, 'select-mapping') === 'needs-mapping');
  const jars = await jarsOf(labld.url, ['maker', 'reader'] as const, PASSWORD);
  return { labld, people, jars, csv, call, stepsWhen };
}
