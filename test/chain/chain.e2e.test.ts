// The automation chain end to end on a whole labld, through the Action API (issue 14): an upload
// of the seed example.csv → annotate → import → describe → select-mapping → convert, on the
// transport LABLD_TEST_TRANSPORT names (embedded here; .ci/run again on Kafka). Waits by polling
// labld_status_show, as a client would.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { readSeed, seedFixture } from '../support/shared.ts';
import { sleep } from '../support/wait.ts';
import { api, person, type Person } from '../catalogue/actions/support.ts';
import { startFixtureServer, type FixtureServer } from '../converter/fixture-server.ts';
import { HARDNESS_MAPPING_TEXT, PARTIAL_MAPPING_TEXT } from './support.ts';

/** The source and the three resources the chain derives from it, in that order. */
const FOUR = ['example.csv', 'example-metadata.jsonld', 'example.ttl', 'example-joined.ttl'];

let labld: Running & { dataDir: string };
let alice: Person;
let files: FixtureServer;
let seedMappingId: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

const auth = () => ({ authorization: alice.token });

async function call(action: string, body: Dict): Promise<Dict> {
  const answer = await api(labld.url, action, { body, headers: auth() });
  assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
  return answer.body.result as Dict;
}

async function upload(action: string, fields: Dict, file: string | Blob, name: string): Promise<Dict> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, String(v));
  form.set('upload', typeof file === 'string' ? new Blob([readFileSync(file)]) : file, name);
  const answer = await api(labld.url, action, { form, headers: auth() });
  assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
  return answer.body.result as Dict;
}

/** The steps of a resource once its chain has come to rest: every step done or failed, none queued or running. */
async function settled(resourceId: string, timeoutMs = 60_000): Promise<Dict[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await call('labld_status_show', { resource_id: resourceId });
    const steps = (status.resources as Dict[]).find((r) => r.resource_id === resourceId)?.steps as
      Dict[] | undefined;
    const resting = steps?.every((s) => s.state === 'done' || s.state === 'failed');
    const ended = steps?.some((s) => s.state === 'failed') || steps?.some((s) => s.step === 'convert');
    const selectDone = steps?.find((s) => s.step === 'select-mapping' && s.state === 'done');
    const noMapping = selectDone && !steps?.some((s) => s.step === 'convert');
    if (steps && resting && (ended || noMapping)) return steps;
    if (Date.now() > deadline) throw new Error(`the chain did not settle: ${JSON.stringify(steps)}`);
    await sleep(100);
  }
}

const names = async (dataset: string) =>
  ((await call('package_show', { id: dataset })).resources as Dict[]).map((r) => r.name as string);

before(async () => {
  // The seed mapping's template is read from a local stand-in for GitHub.
  process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
  files = await startFixtureServer();
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  alice = await person(store, 'alice', true);
  await store.close();
  await call('group_create', { name: 'mappings' });
  await call('package_create', { name: 'mapping-library' });
  await call('member_create', { id: 'mappings', object: 'mapping-library', object_type: 'package' });
  // A decoy first in library order: a mapping for another kind of data.
  await upload(
    'resource_create',
    { package_id: 'mapping-library' },
    new Blob([HARDNESS_MAPPING_TEXT]),
    'hardness-map.yaml',
  );
  seedMappingId = (
    await upload(
      'resource_create',
      { package_id: 'mapping-library' },
      new Blob([files.local(readSeed('rdfconverter/csvw-template-map.yaml'))]),
      'csvw-template-map.yaml',
    )
  ).id as string;
});
after(async () => {
  await labld?.stop();
  await files?.stop();
});

let csvId: string;
let firstDerived: string[];

test('an upload of example.csv ends with its four resources, the table typed in the datastore', async () => {
  await call('package_create', { name: 'tensile' });
  const csv = await upload(
    'resource_create',
    { package_id: 'tensile' },
    seedFixture('csvtocsvw/example.csv'),
    'example.csv',
  );
  csvId = csv.id as string;
  const steps = await settled(csvId);
  assert.deepEqual(
    steps.map((s) => [s.step, s.state]),
    [
      ['annotate', 'done'],
      ['import', 'done'],
      ['describe', 'done'],
      ['select-mapping', 'done'],
      ['convert', 'done'],
    ],
  );
  const selection = steps.find((s) => s.step === 'select-mapping')!;
  assert.deepEqual(
    (selection.summary.ranking as Dict[]).map((r) => [
      r.rank,
      r.name,
      r.rules_applicable,
      r.rules_skipped,
      r.qualifies,
    ]),
    [
      [1, 'csvw-template-map.yaml', 7, 0, true],
      [2, 'hardness-map.yaml', 0, 3, false],
    ],
  );
  assert.deepEqual(await names('tensile'), FOUR);
  const resources = (await call('package_show', { id: 'tensile' })).resources as Dict[];
  firstDerived = resources.slice(1).map((r) => r.id as string);
  // The pages' download route (the resource's URL names BASE_URL; the test's labld listens elsewhere).
  const joinedId = resources[3]!.id as string;
  const joined = await fetch(`${labld.url}/dataset/tensile/resource/${joinedId}/download`, {
    headers: auth(),
  });
  assert.equal(joined.status, 200);
  assert.match(await joined.text(), /@prefix|<http/);

  const table = await call('datastore_search', { resource_id: csvId, limit: 0 });
  const numeric = (table.fields as Dict[]).find((f) => ['numeric', 'float', 'int'].includes(f.type));
  assert.ok(numeric, `a numeric column among ${JSON.stringify(table.fields)}`);
  assert.ok((table.total as number) > 100, 'the rows are imported');
  const sorted = await call('datastore_search', {
    resource_id: csvId,
    sort: `${numeric.id} desc`,
    limit: 50,
  });
  const values = (sorted.records as Dict[]).map((r) => r[numeric.id] as unknown);
  assert.ok(values.every((v) => typeof v === 'number'));
  assert.deepEqual(
    values,
    [...(values as number[])].sort((a, b) => b - a),
    'sorted as numbers',
  );
});

test("the dataset page's Automation section shows each step of the upload", async () => {
  const page = await fetch(`${labld.url}/dataset/tensile`);
  assert.equal(page.status, 200);
  const html = await page.text();
  const automation = html.slice(html.indexOf('id="steps-heading"'));
  for (const step of ['annotate', 'import', 'describe', 'select-mapping', 'convert']) {
    assert.match(
      automation,
      new RegExp(`<code>example\\.csv: ${step}</code> <span class="status status-done">done</span>`),
    );
  }
  assert.match(automation, /mapping &quot;csvw-template-map\.yaml&quot; selected/);
});

test('a redelivered event of a finished run changes nothing; a new version replaces in place', async () => {
  const first = (await call('labld_status_show', { resource_id: csvId })).resources[0].steps as Dict[];
  const run = first[0]!.run as string;
  const dataset = (await call('package_show', { id: 'tensile' })).id as string;
  // The same upload event again (at-least-once delivery, or a replay of the topic).
  const { loadTopics } = await import('../../lib/bus/topics.ts');
  const uploaded = loadTopics('topics.yaml').topicReadBy('chain-annotate').name;
  await labld.bus.publish(
    uploaded,
    { dataset_id: dataset, resource_id: csvId, run, name: 'example.csv' },
    { key: dataset },
  );
  await sleep(500);
  const again = (await call('labld_status_show', { resource_id: csvId })).resources[0].steps as Dict[];
  assert.deepEqual(again, first, 'no step ran again');

  // resource_update with the same file: a new run of the whole chain, outputs replaced.
  await upload('resource_update', { id: csvId }, seedFixture('csvtocsvw/example.csv'), 'example.csv');
  const steps = await settled(csvId);
  assert.notEqual(steps[0]!.run, run);
  assert.ok(steps.every((s) => s.state === 'done'));
  const resources = (await call('package_show', { id: 'tensile' })).resources as Dict[];
  assert.deepEqual(
    resources.map((r) => r.name),
    FOUR,
  );
  assert.deepEqual(
    resources.slice(1).map((r) => r.id),
    firstDerived,
    'the same resources, replaced',
  );
});

test('a link of a trigger format runs the chain on the linked file, fetched through the guarded fetch', async () => {
  await call('package_create', { name: 'linked' });
  const url = files.put('/data/example.csv', readFileSync(seedFixture('csvtocsvw/example.csv')));
  const link = await call('resource_create', { package_id: 'linked', url });
  const steps = await settled(link.id as string);
  assert.deepEqual(
    steps.map((s) => s.state),
    ['done', 'done', 'done', 'done', 'done'],
  );
  assert.deepEqual(await names('linked'), FOUR);
  const shown = await call('resource_show', { id: link.id });
  assert.equal(shown.url, url, 'the resource stays a link');
  const table = await call('datastore_search', { resource_id: link.id, limit: 1 });
  assert.ok((table.total as number) > 100);
});

test('a file that cannot be annotated records a failed step in words; others are unaffected', async () => {
  await call('package_create', { name: 'broken' });
  const form = new FormData();
  form.set('package_id', 'broken');
  form.set('upload', new Blob([new Uint8Array([0, 159, 146, 150, 0, 0, 1, 2, 255, 0])]), 'binary.csv');
  const answer = await api(labld.url, 'resource_create', { form, headers: auth() });
  assert.equal(answer.status, 200);
  const steps = await settled(answer.body.result.id as string);
  assert.equal(steps.length, 1);
  assert.equal(steps[0]!.step, 'annotate');
  assert.equal(steps[0]!.state, 'failed');
  assert.ok((steps[0]!.failure.detail as string).length > 10, steps[0]!.failure.detail);
  assert.match(steps[0]!.failure.action, /upload a corrected version|cannot be read/);
  const task = await call('task_status_show', { entity_id: answer.body.result.id, key: 'annotate' });
  assert.equal(task.state, 'error');
  assert.deepEqual(await names('broken'), ['binary.csv'], 'nothing derived from it');
});

test('deleting the CSV removes its derived resources, its table and its status', async () => {
  await call('resource_delete', { id: csvId });
  assert.deepEqual(await names('tensile'), []);
  const table = await api(labld.url, 'datastore_search', { body: { resource_id: csvId }, headers: auth() });
  assert.equal(table.status, 404);
  const status = await api(labld.url, 'labld_status_show', { body: { id: 'tensile' }, headers: auth() });
  assert.deepEqual(status.body.result.resources, []);
});

const STRATEGY = 'CKANINI__CKANEXT__CSVWMAPANDTRANSFORM__MAPPING_STRATEGY';

test('only a partial mapping: exact converts nothing and says why; best_match (Retry) converts with it', async () => {
  await call('resource_delete', { id: seedMappingId });
  await upload(
    'resource_create',
    { package_id: 'mapping-library' },
    new Blob([files.local(PARTIAL_MAPPING_TEXT)]),
    'partial-map.yaml',
  );
  await call('package_create', { name: 'strategies' });
  const csv = await upload(
    'resource_create',
    { package_id: 'strategies' },
    seedFixture('csvtocsvw/example.csv'),
    'example.csv',
  );
  const exact = await settled(csv.id as string);
  assert.deepEqual(
    exact.map((s) => [s.step, s.state]),
    [
      ['annotate', 'done'],
      ['import', 'done'],
      ['describe', 'done'],
      ['select-mapping', 'done'],
    ],
  );
  const note = exact[3]!.summary.note as string;
  assert.match(note, /no mapping selected: no mapping applies fully: strategy exact needs rules_skipped = 0/);
  assert.match(note, /best_match .* would choose it/);
  assert.deepEqual(await names('strategies'), ['example.csv', 'example-metadata.jsonld', 'example.ttl']);

  process.env[STRATEGY] = 'best_match';
  try {
    const retried = await call('labld_chain_retry', { resource_id: csv.id });
    const steps = await settled(csv.id as string);
    assert.equal(steps[0]!.run, retried.run);
    assert.deepEqual(
      steps.map((s) => s.state),
      ['done', 'done', 'done', 'done', 'done'],
    );
    const ranking = steps[3]!.summary.ranking as Dict[];
    assert.deepEqual(
      [ranking[0]!.name, ranking[0]!.rules_applicable, ranking[0]!.rules_skipped, ranking[0]!.qualifies],
      ['partial-map.yaml', 5, 2, true],
    );
    assert.deepEqual(await names('strategies'), FOUR);
  } finally {
    delete process.env[STRATEGY];
  }
});
