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
//   KAFKA_BROKERS            the broker, e.g. 127.0.0.1:39092; unset, `npm run bench:scale`
//                            starts one (tools/kafka/with-broker.sh, on KAFKA_PORT). Its CPU is
//                            counted when it runs on this machine, started by tools/kafka/broker.sh.
//   LABLD_TEST_DATABASE_URL  a PostgreSQL server whose user may create databases, e.g.
//                            postgres://labld@127.0.0.1:45432/labld (PG_PORT=45432 tools/postgres/server.sh start)
//
// After the two Kafka runs, a model (bench/scale-model.ts) predicts uploads/min from each
// group's, the broker's and PostgreSQL's CPU per upload, and is checked against them.
//
// Usage: node bench/scale.ts [--uploads 200] [--datasets 12] [--parallel 6] [--partitions N] [--skip-embedded]
//                            [--drain GROUP]
//   --partitions N  every topic's default partition count (topics.yaml's `defaults`) for these runs
//   --drain GROUP   after the ×1 run, its backlog on GROUP's topic drained by 1 and then 2
//                   processes of GROUP alone (bench/drain.ts), e.g. --drain chain-describe
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { partitionFor } from '../lib/bus/partitioner.ts';
import { loadTopics } from '../lib/bus/topics.ts';
import type { ChainStep } from '../lib/chain/index.ts';
import { startFixtureServer } from '../test/converter/fixture-server.ts';
import { deleteNamespace, requireBroker } from '../test/kafka/broker.ts';
import { startRegistryDouble } from '../test/kafka/registry-double.ts';
import { startChain, STEP_GROUPS } from '../test/stack/processes.ts';
import { freshDatabase } from '../test/support/database.ts';
import { readSeed, seedFixture } from '../test/support/shared.ts';
import { sleep } from '../test/support/wait.ts';
import { action, library, startChild, upload, type Dict, type Target } from './labld-child.ts';
import { drains, ready, type Drain } from './drain.ts';
import {
  kafkaBroker,
  measure,
  postgresBackends,
  sample,
  usageLines,
  type Sample,
  type Server,
  type Usage,
} from './fleet-usage.ts';
import { modelLines } from './scale-model.ts';

const { values } = parseArgs({
  options: {
    uploads: { type: 'string', default: '200' },
    datasets: { type: 'string', default: '12' },
    parallel: { type: 'string', default: '6' },
    partitions: { type: 'string' },
    'skip-embedded': { type: 'boolean' },
    drain: { type: 'string' },
  },
});
if (values.drain !== undefined && !STEP_GROUPS.includes(values.drain)) {
  console.error(`scale: --drain takes a chain step group: ${STEP_GROUPS.join(', ')}`);
  process.exit(2);
}
const UPLOADS = Number(values.uploads);
const DATASETS = Number(values.datasets);
const PARALLEL = Number(values.parallel);
const SETTLE_TIMEOUT_MS = 30 * 60_000;
/**
 * After every process is ready, how long before and while its CPU at rest is sampled: 5 s after
 * ready, processes still took 9–25 ms a second (start-up's tail); 15 s after, 6 (15 catalogue-requests).
 */
const IDLE_SETTLE_MS = 15_000;
const IDLE_SAMPLE_MS = 10_000;
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

/** The servers beside labld whose CPU is counted: the broker if it runs here, the run's PostgreSQL backends. */
function servers(databaseUrl: string): Server[] {
  const broker = kafkaBroker(new URL(`kafka://${process.env['KAFKA_BROKERS']!.split(',')[0]}`).port);
  const database = postgresBackends(new URL(databaseUrl).pathname.slice(1));
  return broker.pids().length > 0 ? [broker, database] : [database];
}

interface KafkaRun {
  perMinute: number;
  usage: Usage;
  /** The deployment at rest, sampled before its warm-up (bench/scale-model.ts). */
  idle: Usage;
  drains?: Drain[];
}

/**
 * `copies` processes of catalogue-requests and of every chain step group, one gateway; with
 * `drain`, the run's backlog on that group's topic is drained after it (bench/drain.ts).
 */
async function kafka(copies: number, registryUrl: string, drain?: string): Promise<KafkaRun> {
  const { url: databaseUrl, drop } = await freshDatabase('labld_scale');
  try {
    const chain = await startChain(registryUrl, databaseUrl, copies);
    const { d, fleet, gateway, token } = chain;
    try {
      await ready(fleet.all);
      await sleep(IDLE_SETTLE_MS);
      const rest = await sample(fleet.all);
      await sleep(IDLE_SAMPLE_MS);
      const idle = await measure(rest);
      let before: Sample | undefined;
      let from = 0;
      const perMinute = await throughput({ url: gateway.url, token }, async () => {
        before = await sample(fleet.all, servers(databaseUrl));
        from = Date.now();
      });
      const run: KafkaRun = { perMinute, usage: await measure(before!), idle };
      if (!drain) return run;
      // Nothing else consumes while the group drains: every process leaves (SIGTERM) first.
      await Promise.all(fleet.all.splice(0).map((p) => p.stop()));
      const topic = loadTopics(process.env['LABLD_TOPICS'] ?? 'topics.yaml').topicReadBy(drain).name;
      const step = drain.replace(/^chain-/, '') as ChainStep;
      const backlog = { group: drain, step, topic, from, expected: UPLOADS };
      return { ...run, drains: await drains(chain, databaseUrl, servers(databaseUrl), backlog) };
    } finally {
      await fleet.killAll();
      await deleteNamespace(d.prefix).catch(() => {});
    }
  } finally {
    await drop();
  }
}

/** The drained group's CPU seconds per message with one process and with two, for the model. */
function sharing(group: string | undefined, drained: Drain[] | undefined) {
  if (!group || !drained) return undefined;
  const [one, two] = drained.map((d) => d.usage.groups.find((g) => g.name === group)!.cpu / d.messages);
  return { group, one: one!, two: two! };
}

const rate = (perMinute: number) => `${perMinute.toFixed(1)} uploads/min`;

function printDrains(group: string, [one, two]: Drain[]): void {
  console.log(
    `scale: drain ${group}: the ×1 run's ${UPLOADS} messages replayed (labld replay --from-time, the step's statuses queued again), nothing else consuming`,
  );
  for (const d of [one!, two!]) {
    const rateLine = `${d.perSecond.toFixed(2)} messages/s (${d.messages} messages in ${d.usage.seconds.toFixed(1)} s once every process had joined)`;
    console.log(`scale: drain ${group} ×${d.copies}: ${rateLine}`);
    for (const line of usageLines(d.usage, d.messages, 'message', true)) console.log(`scale:   ${line}`);
  }
  const servers = two!.usage.servers.map((s) => s.name).join(' and ');
  const serverShare = two!.usage.servers.reduce((sum, s) => sum + s.cpu, 0) / two!.usage.capacity;
  console.log(
    `scale: drain ${group} ×2 / ×1 = ${(two!.perSecond / one!.perSecond).toFixed(2)}× (goal ≥ 1.8× on 2 cores; the ${servers} share these cores: ${(serverShare * 100).toFixed(0)}% of the machine during the ×2 drain)`,
  );
  // One process of a step is more than one thread (its worker, libuv's pool, V8's helpers): what
  // the ×1 drain already kept busy is no longer there for a second process.
  const cores = one!.usage.capacity / one!.usage.seconds;
  const used = one!.usage.ours / one!.usage.seconds;
  console.log(
    `scale: drain ${group}: the ×1 drain kept ${used.toFixed(2)} of the ${cores.toFixed(0)} cores busy (its process and the ${servers}): at most ${(cores / used).toFixed(2)}× for ×2 on this machine, were nothing else to grow`,
  );
}
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
      const one = await kafka(1, registry.url, values.drain);
      console.log(`scale: kafka ×1 process per group: ${rate(one.perMinute)}`);
      for (const line of usageLines(one.usage, UPLOADS)) console.log(`scale:   ${line}`);
      const two = await kafka(2, registry.url);
      console.log(`scale: kafka ×2 processes per group: ${rate(two.perMinute)}`);
      for (const line of usageLines(two.usage, UPLOADS)) console.log(`scale:   ${line}`);
      const ratio = two.perMinute / one.perMinute;
      console.log(`scale: kafka ×2 / ×1 = ${ratio.toFixed(2)}× (goal ≥ 1.8× on a 2-core machine)`);
      for (const line of modelLines(UPLOADS, one, two, sharing(values.drain, one.drains)))
        console.log(`scale: ${line}`);
      if (one.drains) printDrains(values.drain!, one.drains);
    } finally {
      await registry.close();
    }
  }
  if (!values['skip-embedded']) console.log(`scale: embedded (labld start): ${rate(await embedded())}`);
} finally {
  await files.stop();
  rmSync(workDir, { recursive: true, force: true });
}
