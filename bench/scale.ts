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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFixtureServer } from '../test/converter/fixture-server.ts';
import { deleteNamespace, requireBroker } from '../test/kafka/broker.ts';
import { startRegistryDouble } from '../test/kafka/registry-double.ts';
import { startChain } from '../test/stack/processes.ts';
import { freshDatabase } from '../test/support/database.ts';
import { readSeed, seedFixture } from '../test/support/shared.ts';
import { sleep } from '../test/support/wait.ts';
import { action, library, startChild, upload, type Dict, type Target } from './labld-child.ts';

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
}
const partitions = /^defaults:\n {2}partitions: (\d+)$/m.exec(
  readFileSync(process.env['LABLD_TOPICS'] ?? 'topics.yaml', 'utf8'),
)?.[1];

const files = await startFixtureServer();
const seedMapping = files.local(readSeed('rdfconverter/csvw-template-map.yaml'));
const seedCsv = new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]);

/** Every step of every resource of `datasets`, once all `count` uploads have convert done. */
async function settled(labld: Target, datasets: string[], count: number): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const resources = (
      await Promise.all(datasets.map((id) => action(labld, 'labld_status_show', { id })))
    ).flatMap((s) => s.resources as Dict[]);
    const failed = resources.flatMap((r) => (r.steps as Dict[]).filter((s) => s.state === 'failed'));
    if (failed.length > 0)
      throw new Error(`${failed[0]!.step} failed: ${JSON.stringify(failed[0]!.failure)}`);
    const done = resources.filter((r) =>
      (r.steps as Dict[]).some((s) => s.step === 'convert' && s.state === 'done'),
    ).length;
    if (done >= count) return;
    if (Date.now() > deadline)
      throw new Error(`${done} of ${count} uploads converted after ${SETTLE_TIMEOUT_MS} ms`);
    await sleep(250);
  }
}

/** The library, the datasets, one warm-up chain, then the timed uploads: uploads per minute. */
async function throughput(labld: Target): Promise<number> {
  await library(labld, seedMapping);
  await action(labld, 'package_create', { name: 'warm-up' });
  await upload(labld, 'warm-up', seedCsv, 'example.csv');
  await settled(labld, ['warm-up'], 1);
  const datasets = Array.from({ length: DATASETS }, (_, i) => `scale-${i}`);
  for (const name of datasets) await action(labld, 'package_create', { name });
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let n = next++; n < UPLOADS; n = next++)
        await upload(labld, datasets[n % DATASETS]!, seedCsv, `example-${n}.csv`);
    }),
  );
  await settled(labld, datasets, UPLOADS);
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
async function kafka(copies: number, registryUrl: string): Promise<number> {
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
      return await throughput({ url: gateway.url, token });
    } finally {
      await fleet.killAll();
      await deleteNamespace(d.prefix).catch(() => {});
    }
  } finally {
    await drop();
  }
}

const rate = (perMinute: number) => `${perMinute.toFixed(1)} uploads/min`;
const setup = `${UPLOADS} uploads of the seed example.csv over ${DATASETS} datasets, ${PARALLEL} at a time, ${partitions ?? '?'} partitions per chain topic`;
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
      console.log(`scale: kafka ×1 process per group: ${rate(one)}`);
      const two = await kafka(2, registry.url);
      console.log(`scale: kafka ×2 processes per group: ${rate(two)}`);
      console.log(`scale: kafka ×2 / ×1 = ${(two / one).toFixed(2)}× (goal ≥ 1.8× on a 2-core machine)`);
    } finally {
      await registry.close();
    }
  }
  if (!values['skip-embedded']) console.log(`scale: embedded (labld start): ${rate(await embedded())}`);
} finally {
  await files.stop();
  rmSync(workDir, { recursive: true, force: true });
}
