// Replay for reprocessing (issue 18, item 4), on the transport LABLD_TEST_TRANSPORT names: CSVs
// that no mapping of the library fits under `exact` are left unconverted; a mapping that fits
// them is added to the group `mappings`; labld is stopped, `labld replay` (the command line, as
// an operator runs it) moves chain-select-mapping back to a time before the uploads, and labld
// is started again. The unconverted CSVs get their joined graph; the converted ones keep
// theirs, untouched, and their steps are not run again.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { BROKERS } from '../kafka/broker.ts';
import { startLabld, testTransport } from '../support/labld.ts';
import { seedFixture } from '../support/shared.ts';
import { useChainE2e, type Dict } from './e2e.ts';
import { PARTIAL_MAPPING_TEXT } from './support.ts';

const e = useChainE2e();

/**
 * The seed example.csv with two labels spelt as the partial mapping spells them: the seed
 * mapping then skips two of its rules (not `exact`), the partial mapping applies all seven.
 */
function variantCsv(): Blob {
  let text = readFileSync(seedFixture('csvtocsvw/example.csv')).toString('latin1');
  for (const [from, to] of [
    ['"Probenbreite b0"', '"Probenbreite B0"'],
    ['"Vorkraft"\t', '"Vorkraft F0"\t'],
  ] as const) {
    assert.ok(text.includes(from), `example.csv no longer contains ${from}`);
    text = text.replace(from, to);
  }
  return new Blob([Buffer.from(text, 'latin1')]);
}

const stepOf = (steps: Dict[], step: string) => steps.find((s) => s.step === step);

/** A resource as the test compares it before and after the replay. */
const fingerprint = (r: Dict) => ({ id: r.id, name: r.name, hash: r.hash, size: r.size });

async function resources(dataset: string): Promise<Dict[]> {
  return (await e.call('package_show', { id: dataset })).resources as Dict[];
}

/** `labld replay` as a child process, on the stopped labld's data (and, on Kafka, its topics). */
async function labldReplay(args: string[], where: { dataDir: string; topicPrefix?: string }) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LABLD_TRANSPORT: testTransport(),
    LABLD_DATA: where.dataDir,
    LABLD_LOG_LEVEL: 'silent',
  };
  if (where.topicPrefix) {
    // The broker and topics the test's labld used (KAFKA_BROKERS may be unset: the tests' default).
    env['KAFKA_BROKERS'] = BROKERS.join(',');
    env['LABLD_KAFKA_TOPIC_PREFIX'] = where.topicPrefix;
  }
  return promisify(execFile)(process.execPath, ['bin/labld.js', 'replay', ...args], { env });
}

test('a replay of chain-select-mapping from a time converts only the uploads a new mapping fits', async () => {
  await e.ready;
  // One dataset: its events share a partition (the key is the dataset id), so the replay
  // handles them in upload order, and the last one converted means every one was handled.
  await e.call('package_create', { name: 'tensile-tests' });
  const from = new Date().toISOString();
  const seeded: string[] = [];
  for (const name of ['tensile-1.csv', 'tensile-2.csv']) {
    const csv = new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]);
    seeded.push((await e.upload('resource_create', { package_id: 'tensile-tests' }, csv, name)).id as string);
  }
  for (const id of seeded) await e.settled(id);
  const variants: string[] = [];
  for (const name of ['variant-1.csv', 'variant-2.csv']) {
    variants.push(
      (await e.upload('resource_create', { package_id: 'tensile-tests' }, variantCsv(), name)).id as string,
    );
  }
  for (const id of variants) {
    const steps = await e.settled(id);
    const select = stepOf(steps, 'select-mapping')!;
    assert.equal(select.state, 'needs-mapping');
    assert.equal(select.summary.mapping, undefined, 'no mapping fits under exact');
    assert.equal(stepOf(steps, 'convert'), undefined, 'so nothing is converted');
  }
  const beforeResources = await resources('tensile-tests');
  assert.equal(beforeResources.length, 4 + 4 + 3 + 3);
  const beforeSteps = new Map<string, Dict[]>();
  for (const id of seeded) {
    const steps = await e.settled(id);
    assert.equal(stepOf(steps, 'select-mapping')!.summary.mapping.name, 'csvw-template-map.yaml');
    beforeSteps.set(id, steps);
  }

  // The mapping that fits the variants joins the library.
  await e.upload(
    'resource_create',
    { package_id: 'mapping-library' },
    new Blob([e.files.local(PARTIAL_MAPPING_TEXT)]),
    'tensile-variant-map.yaml',
  );
  // A running group refuses a replay: labld is stopped, replayed, and started again.
  const halted = await e.labld.halt();
  const replayed = await labldReplay(
    ['--topic', 'labld.chain.described', '--group', 'chain-select-mapping', '--from-time', from],
    halted,
  );
  assert.match(replayed.stdout, /group chain-select-mapping on labld\.chain\.described replays from/);
  e.labld = await startLabld({ again: halted });

  for (const id of variants) {
    const steps = await e.stepsWhen(id, (s) => stepOf(s, 'validate')?.state === 'done');
    assert.ok(
      steps.every((s) => s.state === 'done'),
      `every step final: ${JSON.stringify(steps)}`,
    );
    assert.equal(stepOf(steps, 'select-mapping')!.summary.mapping.name, 'tensile-variant-map.yaml');
  }
  // The variants' convert ran after the seeded CSVs' selection was replayed (one partition, in
  // order): those chose the seed mapping again, so their status and results are as they were.
  for (const id of seeded) {
    assert.deepEqual(await e.settled(id), beforeSteps.get(id), 'the seeded CSVs ran nothing again');
  }
  const afterResources = await resources('tensile-tests');
  const byId = new Map(afterResources.map((r) => [r.id as string, r]));
  for (const r of beforeResources) {
    assert.deepEqual(fingerprint(byId.get(r.id as string) ?? {}), fingerprint(r), `${r.name} unchanged`);
  }
  // The only new resources are the variants' joined graphs, once each.
  const added = afterResources.filter((r) => !beforeResources.some((b) => b.id === r.id));
  assert.deepEqual(added.map((r) => r.name).sort(), ['variant-1-joined.ttl', 'variant-2-joined.ttl']);
});
