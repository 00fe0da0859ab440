// Scale-out of the automation chain (issue 18): throughput, in uploads per minute of the seed CSV
// (fixtures/seed-examples/csvtocsvw/example.csv) from upload to joined graph, for
//
//   kafka ×1 — one catalogue gateway, and one `labld serve <group> --transport kafka` process of
//              catalogue-requests and of every chain step group (LABLD_WORKERS=1 each), on
//              Kafka and PostgreSQL;
//   kafka ×2 — the same with two processes of every one of those groups; their ratio to ×1
//              is printed (goal ≥ 1.8× on a 2-core machine);
//   embedded — `labld start`, the default: one process, embedded bus, its worker threads.
//
// Each run has a fresh namespace (topic prefix), database and data directory; the mapping
// library holds the seed mapping (its template served locally) and a decoy. One untimed
// upload warms the steps up; then --uploads uploads over --datasets datasets (the chain's key:
// the dataset id spreads them over the partitions), --parallel at a time, are timed from the
// first upload until every one's convert step is done.
//
// Environment (the Kafka runs need both; without them a line says so and only embedded runs):
//   KAFKA_BROKERS            the broker, e.g. 127.0.0.1:39092
//                            (KAFKA_PORT=39092 KAFKA_CONTROLLER_PORT=39093 tools/kafka/broker.sh start)
//   LABLD_TEST_DATABASE_URL  a PostgreSQL server whose user may create databases, e.g.
//                            postgres://labld@127.0.0.1:45432/labld (PG_PORT=45432 tools/postgres/server.sh start)
//
// Usage: node bench/scale.ts [--uploads 200] [--datasets 12] [--parallel 6] [--partitions N] [--skip-embedded]
//   --partitions N  every topic's default partition count (topics.yaml's `defaults`) for these runs
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { partitionFor } from '../lib/bus/partitioner.ts';
import { loadTopics } from '../lib/bus/topics.ts';
import { startFixtureServer } from '../test/converter/fixture-server.ts';
import { deleteNamespace, requireBroker } from '../test/kafka/broker.ts';
import { startRegistryDouble } from '../test/kafka/registry-double.ts';
import { startChain } from '../test/stack/processes.ts';
import { freshDatabase } from '../test/support/database.ts';
import { readSeed, seedFixture } from '../test/support/shared.ts';
import { sleep } from '../test/support/wait.ts';
import { action, library, startChild, upload, type Dict, type Target } from './labld-child.ts';
import { sample, usage, type Sample } from './fleet-usage.ts';

const { values } = parseArgs({
  options: {
    uploads: { type: 'string', default: '200' },
    datasets: { type: 'string', default: '12' },
    parallel: { type: 'string', default: '6' },
    partitions: { type: 'string' },
    'skip-embedded': { type: 'boolean' },
  },
});
const UPLOADS = Number(values.uploads);
const DATASETS = Number(values.datasets);
const PARALLEL = Number(values.parallel);
const READY_TIMEOUT_MS = 180_000;
const SETTLE_TIMEOUT_MS = 30 * 60_000;
const POLL_MS = 1000;

process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
const workDir = mkdtempSync(join(tmpdir(), 'labld-bench-scale-'));
if (values.partitions) {
  // Only the defaults: the dead-letter topics keep their single partition.
  const topics = readFileSync('topics.yaml', 'utf8').replace(
    /^defaults:\n {2}partitions: \d+$/m,
    `defaults:\n  partitions: ${Number(values.partitions)}`,
  );
  process.env['LABLD_TOPICS'] = join(workDir, 'topics.yaml');
  writeFileSync(process.env['LABLD_TOPICS'], topics);
  // A topics file's schemas are the folder beside it.
  symlinkSync(resolve('schemas'), join(workDir, 'schemas'));
}
// The chain's first topic; the others have the same partition count (topics.yaml's default).
const CHAIN_TOPIC = loadTopics(process.env['LABLD_TOPICS'] ?? 'topics.yaml').topicReadBy('chain-annotate');
const PARTITIONS = CHAIN_TOPIC.partitions;

const files = await startFixtureServer();
const seedMapping = files.local(readSeed('rdfconverter/csvw-template-map.yaml'));
const seedCsv = new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]);

/**
 * Resolves once every dataset of `expected` has that many uploads with convert done; a failed
 * step ends the bench. Polled once a second, and only the datasets still short: the polls are
 * catalogue requests too, and must not take the CPU the chain is being measured with.
 */
async function settled(labld: Target, expected: Map<string, number>): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  const waiting = new Map(expected);
  for (;;) {
    for (const [id, count] of waiting) {
      const resources = (await action(labld, 'labld_status_show', { id })).resources as Dict[];
      const failed = resources.flatMap((r) => (r.steps as Dict[]).filter((s) => s.state === 'failed'));
      if (failed.length > 0)
        throw new Error(`${failed[0]!.step} failed: ${JSON.stringify(failed[0]!.failure)}`);
      const done = resources.filter((r) =>
        (r.steps as Dict[]).some((s) => s.step === 'convert' && s.state === 'done'),
      ).length;
      if (done >= count) waiting.delete(id);
    }
    if (waiting.size === 0) return;
    if (Date.now() > deadline)
      throw new Error(`${[...waiting.keys()].join(', ')} not converted after ${SETTLE_TIMEOUT_MS} ms`);
    await sleep(POLL_MS);
  }
}

/**
 * DATASETS datasets whose ids (the chain's message key) fall evenly on the chain topics'
 * partitions (datasets are made until each partition has its share; the rest stay empty), so
 * that the processes of a group get equal work and the run measures them, not how a dozen
 * random ids happened to hash (two processes over 12 random ids: 1.67× at most on average).
 */
async function evenDatasets(labld: Target): Promise<string[]> {
  const share = Math.ceil(DATASETS / PARTITIONS);
  const taken = new Array<number>(PARTITIONS).fill(0);
  const datasets: string[] = [];
  for (let i = 0; datasets.length < DATASETS; i++) {
    const { id } = await action(labld, 'package_create', { name: `scale-${i}` });
    const partition = partitionFor(CHAIN_TOPIC.name, id as string, PARTITIONS, 0);
    if (taken[partition]! < share) {
      taken[partition]! += 1;
      datasets.push(id as string);
    }
  }
  return datasets;
}

/** The library, the datasets, one warm-up chain, then the timed uploads: uploads per minute. */
async function throughput(labld: Target, timing?: () => Promise<void>): Promise<number> {
  await library(labld, seedMapping);
  await action(labld, 'package_create', { name: 'warm-up' });
  await upload(labld, 'warm-up', seedCsv, 'example.csv');
  await settled(labld, new Map([['warm-up', 1]]));
  const datasets = await evenDatasets(labld);
  const expected = new Map(datasets.map((id) => [id, 0]));
  for (let n = 0; n < UPLOADS; n++)
    expected.set(datasets[n % DATASETS]!, expected.get(datasets[n % DATASETS]!)! + 1);
  await timing?.();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let n = next++; n < UPLOADS; n = next++)
        await upload(labld, datasets[n % DATASETS]!, seedCsv, `example-${n}.csv`);
    }),
  );
  await settled(labld, expected);
  return (UPLOADS / (performance.now() - started)) * 60_000;
}

async function embedded(): Promise<number> {
  const labld = await startChild(join(workDir, 'embedded'));
  try {
    return await throughput(labld);
  } finally {
    await labld.stop();
  }
}

/** `copies` processes of catalogue-requests and of every chain step group, one gateway. */
async function kafka(copies: number, registryUrl: string): Promise<{ perMinute: number; usage: string[] }> {
  const { url: databaseUrl, drop } = await freshDatabase('labld_scale');
  try {
    const { d, fleet, gateway, token } = await startChain(registryUrl, databaseUrl, copies);
    try {
      // Ready: every consumer has joined its group and every server it needs answers.
      const deadline = Date.now() + READY_TIMEOUT_MS;
      for (const p of fleet.all)
        while ((await fetch(`${p.url}/readyz`)).status !== 200) {
          if (Date.now() > deadline) throw new Error(`${p.name} not ready after ${READY_TIMEOUT_MS} ms`);
          await sleep(500);
        }
      let before: Sample | undefined;
      const perMinute = await throughput({ url: gateway.url, token }, async () => {
        before = await sample(fleet.all);
      });
      return { perMinute, usage: await usage(before!, UPLOADS) };
    } finally {
      await fleet.killAll();
      await deleteNamespace(d.prefix).catch(() => {});
    }
  } finally {
    await drop();
  }
}

const rate = (perMinute: number) => `${perMinute.toFixed(1)} uploads/min`;
const setup = `${UPLOADS} uploads of the seed example.csv over ${DATASETS} datasets, ${PARALLEL} at a time, ${PARTITIONS} partitions per chain topic (${Math.ceil(DATASETS / PARTITIONS)} datasets on each)`;
console.log(`scale: ${setup}`);
try {
  const missing = ['KAFKA_BROKERS', 'LABLD_TEST_DATABASE_URL'].filter((name) => !process.env[name]);
  if (missing.length > 0) {
    console.log(
      `scale: kafka runs skipped: ${missing.join(' and ')} not set (see the header of bench/scale.ts for how to start the servers)`,
    );
  } else {
    await requireBroker();
    const registry = await startRegistryDouble();
    try {
      const one = await kafka(1, registry.url);
      console.log(`scale: kafka ×1 process per group: ${rate(one.perMinute)}`);
      for (const line of one.usage) console.log(`scale:   ${line}`);
      const two = await kafka(2, registry.url);
      console.log(`scale: kafka ×2 processes per group: ${rate(two.perMinute)}`);
      for (const line of two.usage) console.log(`scale:   ${line}`);
      const ratio = two.perMinute / one.perMinute;
      console.log(`scale: kafka ×2 / ×1 = ${ratio.toFixed(2)}× (goal ≥ 1.8× on a 2-core machine)`);
    } finally {
      await registry.close();
    }
  }
  if (!values['skip-embedded']) console.log(`scale: embedded (labld start): ${rate(await embedded())}`);
} finally {
  await files.stop();
  rmSync(workDir, { recursive: true, force: true });
}
