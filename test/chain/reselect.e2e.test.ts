// Saving a mapping re-runs selection for the uploads that wait for one (issue 28): a CSV uploaded
// while the library has no mapping for it rests in "needs a mapping"; once a fitting mapping is
// uploaded into a library dataset, its select-mapping runs again by itself, convert runs and the
// joined graph appears — nobody presses Retry.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { seedFixture } from '../support/shared.ts';
import { stateOf, stepsWhen as waitForSteps, type Step } from '../support/steps.ts';
import { api } from '../catalogue/actions/support.ts';
import { startLibraryLabld, type LibraryLabld } from './library-labld.ts';

type Dict = Record<string, unknown>;

let lab: LibraryLabld;
before(async () => {
  lab = await startLibraryLabld();
});
after(() => lab.stop());

async function uploadTo(dataset: string, body: Blob, name: string): Promise<string> {
  const form = new FormData();
  form.set('package_id', dataset);
  form.set('upload', body, name);
  const made = await api(lab.labld.url, 'resource_create', {
    form,
    headers: { authorization: lab.root.token },
  });
  assert.equal(made.status, 200, JSON.stringify(made.body.error));
  return made.body.result.id as string;
}

const stepsWhen = (id: string, done: (steps: Step[]) => boolean) => waitForSteps(lab.call, id, done);

test('a CSV with no library mapping needs one; uploading a fitting mapping converts it', async () => {
  // The library's only mapping is taken out (its text kept, to be saved again).
  const library = (await lab.call('package_show', { id: 'library' })).resources as Dict[];
  const seedMapping = library.find((r) => r.name === 'csvw-template-map.yaml')!;
  const yaml = await (await fetch(String(seedMapping.url))).text();
  assert.match(yaml, /template:/);
  await lab.call('resource_delete', { id: seedMapping.id });

  await lab.call('package_create', { name: 'waiting' });
  const csv = await uploadTo(
    'waiting',
    new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]),
    'example.csv',
  );
  const waiting = await stepsWhen(csv, (s) => stateOf(s, 'select-mapping') === 'needs-mapping');
  assert.equal(stateOf(waiting, 'convert'), undefined, 'nothing converted');
  const shown = await lab.call('labld_mapping_library_show', {});
  assert.deepEqual(shown.waiting, [csv]);

  await uploadTo('library', new Blob([yaml]), 'tensile-map.yaml');
  const converted = await stepsWhen(csv, (s) => stateOf(s, 'convert') === 'done');
  const select = converted.find((s) => s.step === 'select-mapping')!;
  assert.equal(select.state, 'done');
  assert.equal((select.summary!.mapping as Dict).name, 'tensile-map.yaml');
  const names = ((await lab.call('package_show', { id: 'waiting' })).resources as Dict[]).map((r) => r.name);
  assert.ok(names.includes('example-joined.ttl'), `the joined graph appears: ${names.join(', ')}`);
  assert.deepEqual((await lab.call('labld_mapping_library_show', {})).waiting, []);
});

test('a dataset of mappings joining the library converts the uploads waiting for one', async () => {
  const library = (await lab.call('package_show', { id: 'library' })).resources as Dict[];
  const fitting = library.find((r) => r.name === 'tensile-map.yaml')!;
  const yaml = await (await fetch(String(fitting.url))).text();
  await lab.call('resource_delete', { id: fitting.id });
  await lab.call('package_create', { name: 'waiting-too' });
  const csv = await uploadTo(
    'waiting-too',
    new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]),
    'example.csv',
  );
  await stepsWhen(csv, (s) => stateOf(s, 'select-mapping') === 'needs-mapping');
  // Outside the library, the mapping changes nothing; joining it, it is selected.
  await lab.call('package_create', { name: 'more-mappings' });
  await uploadTo('more-mappings', new Blob([yaml]), 'joined-later.yaml');
  await lab.call('member_create', { id: 'mappings', object: 'more-mappings', object_type: 'package' });
  const converted = await stepsWhen(csv, (s) => stateOf(s, 'convert') === 'done');
  const select = converted.find((s) => s.step === 'select-mapping')!;
  assert.equal((select.summary!.mapping as Dict).name, 'joined-later.yaml');
});
