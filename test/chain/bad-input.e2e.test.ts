// Bad input through the automation chain end to end (issue 14), on the transport
// LABLD_TEST_TRANSPORT names: files that cannot be annotated, a mapping library with a broken
// YAML, a converter step whose upstream is down. Each failure is recorded on its step in
// words, the uploads beside it go through, and its message is kept in the step's dead-letter
// topic, from which it is replayed to success once the cause is fixed.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { DLQ_HEADERS } from '../../lib/bus/dead-letter.ts';
import { loadTopics } from '../../lib/bus/topics.ts';
import { serve } from '../support/file-server.ts';
import { readSeed } from '../support/shared.ts';
import { sleep } from '../support/wait.ts';
import { TEMPLATE_URL } from '../converter/support.ts';
import { BROKEN_MAPPING_TEXT } from './support.ts';
import { FOUR, useChainE2e, type Dict } from './e2e.ts';

const e = useChainE2e();
const { call, upload, uploadSeed, settled, stepsWhen, names } = e;
const catalog = loadTopics('topics.yaml');

/** A message of a chain topic as its dead-letter topic keeps it. */
interface DeadLetter {
  /** The topic it failed on, where a replay puts it again. */
  topic: string;
  value: Dict;
  error: string;
  attempts: number;
}

const letters: DeadLetter[] = [];

before(async () => {
  await e.ready;
  const chainTopics = catalog.all().filter((t) => t.name.startsWith('labld.chain.') && t.deadLetter);
  // Side by side: on Kafka each join waits for the group's rebalance.
  await Promise.all(
    chainTopics.map((topic) =>
      e.labld.bus.subscribe<Dict>(topic.deadLetter!, `test-reader-${topic.name}`, async (message) => {
        letters.push({
          topic: topic.name,
          value: message.value,
          error: message.headers[DLQ_HEADERS.error] ?? '',
          attempts: Number(message.headers[DLQ_HEADERS.attempts]),
        });
      }),
    ),
  );
});

/** The dead letter of the source `resourceId` on `topic`, once it has arrived. */
async function deadLetter(topic: string, resourceId: string): Promise<DeadLetter> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const letter = letters.find((l) => l.topic === topic && l.value.resource_id === resourceId);
    if (letter) return letter;
    if (Date.now() > deadline) throw new Error(`no dead letter of ${resourceId} on ${topic}`);
    await sleep(100);
  }
}

/** A replay: the dead letter's message again on the topic it failed on, as it was. */
const replay = (letter: DeadLetter) =>
  e.labld.bus.publish(letter.topic, letter.value, { key: letter.value.dataset_id as string });

const SEED_MAPPING = 'rdfconverter/csvw-template-map.yaml';
const UPLOADED = catalog.topicReadBy('chain-annotate').name;
const DESCRIBED = catalog.topicReadBy('chain-select-mapping').name;
const MAPPING_SELECTED = catalog.topicReadBy('chain-convert').name;

const states = (steps: Dict[]) => steps.map((s) => [s.step, s.state]);
const DONE = [
  ['annotate', 'done'],
  ['import', 'done'],
  ['describe', 'done'],
  ['select-mapping', 'done'],
  ['convert', 'done'],
  ['validate', 'done'],
];

test('files that cannot be annotated fail their annotate step in words, beside an upload that goes through', async () => {
  await call('package_create', { name: 'mixed' });
  const bad: [string, Blob, RegExp][] = [
    ['empty.csv', new Blob([]), /^file: the file is empty$/],
    [
      'binary.csv',
      new Blob([new Uint8Array([0, 159, 146, 150, 0, 0, 1, 2, 255, 0])]),
      /^file: this is a binary file \(it contains NUL bytes\), not a CSV text file$/,
    ],
    [
      'header-only.csv',
      new Blob(['Zeit [s];Kraft [N]\n']),
      /^file: the file has a single line \(a header without data rows\); nothing to annotate$/,
    ],
  ];
  const ids: string[] = [];
  for (const [name, file] of bad) {
    ids.push((await upload('resource_create', { package_id: 'mixed' }, file, name)).id as string);
  }
  const goodId = await uploadSeed('mixed', true);
  for (const [i, [name, , detail]] of bad.entries()) {
    const steps = await settled(ids[i]!);
    assert.deepEqual(states(steps), [['annotate', 'failed']], name);
    const { failure } = steps[0]!;
    assert.match(failure.detail, detail, name);
    assert.equal(failure.retryable, false);
    assert.match(failure.action, /^the file cannot be read as a table: .* upload a corrected version$/);
    const task = await call('task_status_show', { entity_id: ids[i], key: 'annotate' });
    assert.equal(task.state, 'error');
    assert.ok((task.error as string).startsWith(failure.detail as string), task.error);
    // Not lost: the upload event waits in the dead-letter topic, with the failure.
    const letter = await deadLetter(UPLOADED, ids[i]!);
    assert.equal(letter.value.name, name);
    assert.ok(letter.error.includes(failure.detail as string), letter.error);
  }
  assert.deepEqual(states(await settled(goodId)), DONE);
  assert.deepEqual((await names('mixed')).sort(), [...bad.map(([name]) => name), ...FOUR].sort());
});

/** The broken mapping's resource, corrected in the next test. */
let brokenId: string;

test('a broken YAML in the library is a ranked-out row while another mapping is selected', async () => {
  const broken = await upload(
    'resource_create',
    { package_id: 'mapping-library' },
    new Blob([BROKEN_MAPPING_TEXT]),
    'broken-map.yaml',
  );
  brokenId = broken.id as string;
  const besideId = await uploadSeed('beside-broken');
  const steps = await settled(besideId);
  assert.deepEqual(states(steps), DONE);
  const ranking = steps[3]!.summary.ranking as Dict[];
  assert.equal(ranking[0]!.name, 'csvw-template-map.yaml');
  const row = ranking.find((r) => r.name === 'broken-map.yaml')!;
  assert.deepEqual([row.rank, row.qualifies], [undefined, false]);
  assert.match(row.error as string, /YAML/);
});

test('with no other mapping, the broken YAML fails select-mapping; fixed, its dead letter replays to a joined graph', async () => {
  await call('resource_delete', { id: e.seedMappingId });
  const id = await uploadSeed('waits-for-library');
  const failed = await settled(id);
  assert.deepEqual(states(failed), [...DONE.slice(0, 3), ['select-mapping', 'failed']]);
  const { failure } = failed[3]!;
  assert.match(
    failure.detail,
    /^no mapping selected \(no mapping has an applicable rule .*\), and 1 mapping\(s\) of the group mappings could not be read: "broken-map\.yaml": .*YAML/,
  );
  assert.match(failure.action, /^correct the mapping in the group mappings .* then press Retry$/);
  const letter = await deadLetter(DESCRIBED, id);
  assert.match(letter.error, /broken-map\.yaml/);
  assert.deepEqual(await names('waits-for-library'), FOUR.slice(0, 3));

  // Fixed: the broken YAML replaced by a good mapping; the kept message replayed as it was.
  await upload(
    'resource_update',
    { id: brokenId },
    new Blob([e.files.local(readSeed(SEED_MAPPING))]),
    'broken-map.yaml',
  );
  await replay(letter);
  const steps = await stepsWhen(id, (s) => s.length === DONE.length && s.every((x) => x.state === 'done'));
  assert.equal(steps[0]!.run, failed[0]!.run, 'the same run, carried on from the failed step');
  assert.match(steps[3]!.summary.note as string, /^mapping "broken-map\.yaml" selected \(7 rules applicable/);
  assert.deepEqual(await names('waits-for-library'), FOUR);
  await call('resource_delete', { id: brokenId });
});

test('a converter step whose upstream is down is retried, then dead-lettered in words; replayed once it is back', async () => {
  // The mapping's template host: down (503) until `up`.
  let up = false;
  let asked = 0;
  const host = await serve((_req, res) => {
    asked += 1;
    if (!up) return void res.writeHead(503).end('down for maintenance');
    res.writeHead(200, { 'content-type': 'text/turtle' }).end(template);
  });
  const methods = `${host.origin}/methods/`;
  const dir = TEMPLATE_URL.slice(0, TEMPLATE_URL.lastIndexOf('/') + 1);
  const template = readSeed('maptomethod/templates/DIN_EN_ISO_527-3.drawio.ttl').replaceAll(dir, methods);
  try {
    await upload(
      'resource_create',
      { package_id: 'mapping-library' },
      new Blob([readSeed(SEED_MAPPING).replaceAll(dir, methods)]),
      'remote-template-map.yaml',
    );
    const id = await uploadSeed('upstream-down');
    const letter = await deadLetter(MAPPING_SELECTED, id);
    const maxAttempts = catalog.topic(MAPPING_SELECTED).maxAttempts;
    assert.equal(letter.attempts, maxAttempts, 'retried with backoff before it was dead-lettered');
    assert.ok(asked >= maxAttempts, `the host was asked on every attempt (${asked})`);
    const failed = await settled(id);
    assert.deepEqual(states(failed), [...DONE.slice(0, 4), ['convert', 'failed']]);
    const convert = failed[4]!;
    assert.ok(convert.attempt >= maxAttempts, `attempt ${convert.attempt}`);
    assert.equal(convert.failure.retryable, true);
    assert.ok((convert.failure.detail as string).includes(methods), convert.failure.detail);
    assert.match(convert.failure.detail, /503/);
    assert.match(convert.failure.action, /did not answer; the step is retried by itself/);
    assert.deepEqual(await names('upstream-down'), FOUR.slice(0, 3));

    up = true;
    await replay(letter);
    const steps = await stepsWhen(id, (s) => s.length === DONE.length && s.every((x) => x.state === 'done'));
    assert.match(steps[4]!.summary.note as string, /"remote-template-map\.yaml": 7 rules applied, 0 skipped/);
    assert.deepEqual(await names('upstream-down'), FOUR);
  } finally {
    await host.close();
  }
});
