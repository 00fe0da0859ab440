// Fault test of the automation chain across processes (issues 14 and 18), on the real Kafka
// broker (KAFKA_BROKERS), PostgreSQL (LABLD_TEST_DATABASE_URL), Redis (LABLD_TEST_REDIS_URL)
// and Fuseki (LABLD_TEST_TRIPLESTORE_URL) that .ci/run starts: two catalogue gateways, two
// catalogue-requests consumers (whose outbox relays compete), two processes of every chain
// step and of the triple store's groups, and the dead-letter collectors, each `labld serve …
// --transport kafka` on its own, every converted dataset loaded by itself (autoload). 200 small CSVs are uploaded over 20 datasets through both
// gateways while, every few seconds, a random step process is SIGKILLed and started again, the
// broker is stopped for 10 seconds and started again, and PostgreSQL is restarted once. An
// upload whose answer was lost is sent again only once the broker holds nothing unhandled and
// the upload is not there (a careful client). Then every upload has its three derived resources
// exactly once, every step status is final, no message is left unhandled outside the
// dead-letter topics, the dead letters (if any) replay to success, and every dataset's SPARQL
// endpoint counts the triples of its joined graphs.
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, test } from 'node:test';
import { CHAIN_STEPS } from '../../lib/chain/index.ts';
import { ENDPOINT_FORMAT, ENDPOINT_NAME } from '../../lib/chain/load.ts';
import { DEAD_LETTERS_PROCESS } from '../../consumers/chain-dead-letters.ts';
import { api } from '../catalogue/actions/support.ts';
import { deleteNamespace, requireBroker } from '../kafka/broker.ts';
import { startRegistryDouble, type RegistryDouble } from '../kafka/registry-double.ts';
import { sleep } from '../support/wait.ts';
import { freshDatabase } from '../support/database.ts';
import { countOnEndpoint } from '../triplestore/chain-support.ts';
import { startChain, STEP_GROUPS, TRIPLESTORE_GROUPS } from './processes.ts';
import { joinedTriplesOf } from './triples.ts';
import { kafkaBroker, postgresServer, unhandled, type ServerControl } from './servers.ts';

const UPLOADS = 200;
const DATASETS = 20;
/** Uploads in flight at once (a client's parallel requests). */
const PARALLEL = 6;
/** A random step process is killed every KILL_EVERY_MS ± half of it. */
const KILL_EVERY_MS = 3_000;
/** Kills go on this long after the last upload, while the chain catches up. */
const KILL_AFTER_UPLOADS_MS = 20_000;
const SETTLE_TIMEOUT_MS = 180_000;
/** The broker is stopped this long after the uploads began, for BROKER_DOWN_MS. */
const BROKER_STOP_AT_MS = 8_000;
const BROKER_DOWN_MS = 10_000;
/** PostgreSQL is restarted this long after the broker is back. */
const PG_RESTART_AFTER_MS = 10_000;
/** How long the loads may still be running once the chain is at rest. */
const LOAD_TIMEOUT_MS = 60_000;
/** A replacement that cannot start (PostgreSQL down, say) is tried again, as compose's `restart` would. */
const START_ATTEMPTS = 5;

/** What each upload `n.csv` must end with: itself and what the chain derives from it. */
const derivedOf = (base: string) => [
  `${base}.csv`,
  `${base}-metadata.jsonld`,
  `${base}.ttl`,
  `${base}-joined.ttl`,
];

/** A mapping of the group mappings that applies to every upload (its two columns), so that convert runs. */
const rule = (column: string) => `  ${column}Column:
    sources: [columns]
    s: $(@id)
    condition:
      function: equal
      parameters:
      - [str1, $(name)]
      - [str2, ${column}]
    po:
    - ['http://purl.obolibrary.org/obo/RO_0010002', 'ex:${column}~iri']
`;
const MAPPING = `prefixes:
  ex: 'http://example.org/fault/'
sources:
  columns: {access: 'https://example.org/fault-metadata.json', iterator: '$..columns[*]', referenceFormulation: jsonpath}
mappings:
${rule('Sample')}${rule('Force')}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

let registry: RegistryDouble;
let broker: ServerControl;
let postgres: ServerControl;
let databaseUrl: string;
let dropDatabase: () => Promise<void>;

/** A server .ci/run starts, by the variable it exports; unset fails the test (never a skip). */
function server(variable: string, script: string): string {
  const url = process.env[variable] ?? '';
  if (!url) throw new Error(`${variable} is not set: start ${script} and set it`);
  return url;
}

before(async () => {
  await requireBroker();
  broker = kafkaBroker();
  registry = await startRegistryDouble();
  ({ url: databaseUrl, drop: dropDatabase } = await freshDatabase('labld_fault'));
  postgres = postgresServer(process.env.LABLD_TEST_DATABASE_URL!);
});
after(async () => {
  // Both servers are left running for .ci/run's later suites, whatever happened.
  await broker?.start();
  await postgres?.start();
  await registry?.close();
  await dropDatabase?.();
});

test(`${UPLOADS} uploads over ${DATASETS} datasets through 2 gateways while step processes are SIGKILLed, the broker stops and PostgreSQL restarts: every upload's resources exactly once, every status final, nothing unhandled`, async (t) => {
  const starting = Date.now();
  const { d, fleet, gateways, token } = await startChain(registry.url, databaseUrl, 2, {
    gateways: 2,
    deadLetters: true,
    replaceAttempts: START_ATTEMPTS,
    triplestore: true,
    env: {
      LABLD_REDIS_URL: server('LABLD_TEST_REDIS_URL', 'tools/redis/server.sh'),
      LABLD_TRIPLESTORE_URL: server('LABLD_TEST_TRIPLESTORE_URL', 'tools/fuseki/server.sh'),
      LABLD_TRIPLESTORE_AUTOLOAD: 'true',
    },
  });
  try {
    const headers = { authorization: token };
    const startSeconds = (Date.now() - starting) / 1000;
    const processes = fleet.all.length;
    // Each process is ready, having asked the servers it needs: the broker, the registry,
    // PostgreSQL, Redis, and Fuseki for the triple store's groups.
    for (const p of fleet.all) {
      const ready = await fetch(`${p.url}/readyz`);
      const { checks } = (await ready.json()) as { checks: Record<string, string> };
      assert.equal(ready.status, 200, `${p.name}: ${JSON.stringify(checks)}`);
      const needs = ['bus', 'schema-registry', 'catalogue-store', 'redis'];
      if (TRIPLESTORE_GROUPS.includes(p.name)) needs.push('triplestore');
      else if (p.name !== DEAD_LETTERS_PROCESS) needs.push('datastore');
      for (const server of needs) assert.equal(checks[server], 'ok', `${p.name} checks ${server}`);
    }
    const urls = gateways.map((g) => g.url);
    const call = async (action: string, body: Dict): Promise<Dict> => {
      const answer = await api(urls[0]!, action, { body, headers });
      assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
      return answer.body.result as Dict;
    };
    /** An upload through gateway `via`; its answer, or undefined when it was lost (an error, a fault). */
    const upload = async (
      via: number,
      fields: Dict,
      content: string,
      name: string,
    ): Promise<Dict | undefined> => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, String(v));
      form.set('upload', new Blob([content]), name);
      const answer = await api(urls[via % urls.length]!, 'resource_create', { form, headers }).catch(
        () => undefined,
      );
      return answer?.status === 200 ? (answer.body.result as Dict) : undefined;
    };
    const csvOf = (n: number) => `sample,force\nS${n}-a,${n}.5\nS${n}-b,${n + 1}.25\n`;

    // The mapping library's group `mappings` is made at first start.
    await call('package_create', { name: 'mapping-library' });
    await call('member_create', { id: 'mappings', object: 'mapping-library', object_type: 'package' });
    assert.ok(
      await upload(0, { package_id: 'mapping-library' }, MAPPING, 'fault-map.yaml'),
      'the mapping uploads',
    );
    const datasets = Array.from({ length: DATASETS }, (_, i) => `runs-${i}`);
    for (const name of datasets) await call('package_create', { name });

    // Every few seconds a random step process dies without a goodbye and comes back: while the
    // uploads go on, and for a while after, as the chain catches up.
    let uploadsEndedAt = Infinity;
    const stopKilling = new AbortController();
    const kills: string[] = [];
    const killer = (async () => {
      for (;;) {
        const pause = KILL_EVERY_MS / 2 + randomInt(KILL_EVERY_MS);
        const stopped = await sleep(pause, false, { signal: stopKilling.signal }).catch(() => true);
        const late = Date.now() - uploadsEndedAt > KILL_AFTER_UPLOADS_MS;
        if (stopped || late) return;
        const killed = await fleet.killOne(STEP_GROUPS);
        if (killed) kills.push(killed);
      }
    })();

    const started = Date.now();
    // The servers' faults, once each, while the uploads go on.
    const faults = { brokerStops: 0, brokerDownSeconds: 0, pgRestarts: 0 };
    const faulting = (async () => {
      await sleep(BROKER_STOP_AT_MS);
      const stopping = Date.now();
      await broker.stop();
      faults.brokerStops++;
      await sleep(BROKER_DOWN_MS);
      await broker.start();
      faults.brokerDownSeconds = (Date.now() - stopping) / 1000;
      await sleep(PG_RESTART_AFTER_MS);
      await postgres.stop();
      await postgres.start();
      faults.pgRestarts++;
    })();

    const lostAnswers: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let n = next++; n < UPLOADS; n = next++) {
          const made = await upload(n, { package_id: datasets[n % DATASETS] }, csvOf(n), `run-${n}.csv`);
          if (!made) lostAnswers.push(n);
        }
      }),
    );
    uploadsEndedAt = Date.now();
    const uploadSeconds = (Date.now() - started) / 1000;
    await faulting;
    const phase = (what: string) =>
      console.log(`chain fault test: ${what} after ${((Date.now() - started) / 1000).toFixed(0)} s`);
    phase(`uploads done (${lostAnswers.length} answers lost), faults done`);

    const final = (state: string) => state === 'done' || state === 'failed';
    const statusesNow = async (): Promise<Dict[]> =>
      (await Promise.all(datasets.map((id) => call('labld_status_show', { id })))).flatMap(
        (s) => s.resources as Dict[],
      );
    /** The chain comes to rest: the broker holds nothing unhandled, and `atLeast` chains are final. */
    const settle = async (atLeast: number): Promise<{ statuses: Dict[]; left: string[] }> => {
      const deadline = Date.now() + SETTLE_TIMEOUT_MS;
      for (;;) {
        // The broker is asked first, 2 s after this loop's own status calls: those are catalogue
        // requests too, handled (and their offsets committed) by then. A server still coming
        // back answers with an error: asked again.
        const [left, statuses]: [string[], Dict[]] = await unhandled(d.prefix)
          .then(async (l): Promise<[string[], Dict[]]> => [l, await statusesNow()])
          .catch((): [string[], Dict[]] => [['(no answer)'], []]);
        const resting =
          left.length === 0 &&
          statuses.length >= atLeast &&
          statuses.every(
            (r) =>
              (r.steps as Dict[]).every((s) => final(s.state)) &&
              ((r.steps as Dict[]).length === CHAIN_STEPS.length ||
                (r.steps as Dict[]).some((s) => s.state === 'failed')),
          );
        if (resting || Date.now() > deadline) return { statuses, left };
        await sleep(2000);
      }
    };
    /** Every resource by name; a dataset's SPARQL endpoint (registered by its load) as `<dataset>/SPARQL`. */
    const names = async (): Promise<string[]> =>
      (await Promise.all(datasets.map((id) => call('package_show', { id })))).flatMap((p) =>
        (p.resources as Dict[]).map((r) =>
          r.format === ENDPOINT_FORMAT ? `${p.name}/${r.name}` : (r.name as string),
        ),
      );

    // An upload whose answer was lost was made or not: once nothing is left to handle, those
    // not there are sent again (to the other gateway).
    await settle(UPLOADS - lostAnswers.length);
    phase('at rest before resending');
    const present = new Set(await names());
    const resent = lostAnswers.filter((n) => !present.has(`run-${n}.csv`));
    for (const n of resent)
      assert.ok(
        await upload(n + 1, { package_id: datasets[n % DATASETS] }, csvOf(n), `run-${n}.csv`),
        `run-${n}.csv sent again`,
      );
    await settle(UPLOADS);

    // Dead letters (a step that failed all its attempts while a server was away) replay to success.
    const letters = (await Promise.all(datasets.map((id) => call('labld_dead_letter_list', { id })))).flatMap(
      (l) => l.dead_letters as Dict[],
    );
    phase(`at rest; ${letters.length} dead letters to replay`);
    for (const letter of letters) await call('labld_dead_letter_replay', { id: letter.id });
    stopKilling.abort();
    await killer;
    await fleet.started();
    const rest = await settle(UPLOADS);
    const { statuses } = rest;
    const settleSeconds = (Date.now() - started) / 1000;
    const lettersLeft = (
      await Promise.all(datasets.map((id) => call('labld_dead_letter_list', { id })))
    ).flatMap((l) => l.dead_letters as Dict[]);

    // Every dataset loaded itself after its last convert: its endpoint (asked anonymously
    // through the other gateway) counts the triples of its joined graphs. A load a late
    // convert asked for may still be running.
    const loadsDeadline = Date.now() + LOAD_TIMEOUT_MS;
    let loads: { id: string; graphs: number; triples: number; state: unknown; counted: number }[];
    for (;;) {
      loads = [];
      for (const id of datasets) {
        const joined = await joinedTriplesOf(urls[0]!, headers, id);
        const load = (await call('labld_status_show', { id })).triplestore as Dict | null;
        loads.push({ id, ...joined, state: load?.state, counted: await countOnEndpoint(urls[1]!, id) });
      }
      if (loads.every((l) => l.state === 'done' && l.counted === l.triples)) break;
      if (Date.now() > loadsDeadline) break;
      await sleep(2000);
    }
    const unloaded = loads
      .filter((l) => l.state !== 'done' || l.counted !== l.triples)
      .map((l) => `${l.id}: ${String(l.state)}, ${l.counted} of ${l.triples} triples`);
    const triples = loads.reduce((sum, l) => sum + l.counted, 0);

    // Every upload: its derived resources exactly once, none missing, none twice.
    const resources = await names();
    const expected = [
      ...Array.from({ length: UPLOADS }, (_, n) => derivedOf(`run-${n}`)).flat(),
      ...datasets.map((id) => `${id}/${ENDPOINT_NAME}`),
    ];
    const have = new Map<string, number>();
    for (const name of resources) have.set(name, (have.get(name) ?? 0) + 1);
    const lost = expected.filter((name) => !have.has(name));
    const duplicates = [...have].filter(([, count]) => count > 1).map(([name]) => name);
    const stuck = statuses.flatMap((r) =>
      (r.steps as Dict[]).filter((s) => !final(s.state)).map((s) => `${r.resource_id} ${s.step} ${s.state}`),
    );
    const failed = statuses.flatMap((r) =>
      (r.steps as Dict[])
        .filter((s) => s.state === 'failed')
        .map((s) => `${s.step}: ${JSON.stringify(s.failure ?? s.error)}`),
    );
    // Steps that ran more than once: interrupted by a kill (or retried) and run again.
    const again = statuses.flatMap((r) => (r.steps as Dict[]).filter((s) => s.attempt > 1)).length;
    const perGroup = STEP_GROUPS.map((g) => `${g.slice(6)} ${kills.filter((k) => k === g).length}`);
    const figures =
      `${processes} processes started in ${startSeconds.toFixed(0)} s; uploads ${UPLOADS} over ${DATASETS} datasets through ${urls.length} gateways in ${uploadSeconds.toFixed(0)} s ` +
      `(answers lost ${lostAnswers.length}, sent again ${resent.length}), chain at rest after ${settleSeconds.toFixed(0)} s; ` +
      `kills ${kills.length} (${perGroup.join(', ')}), broker stops ${faults.brokerStops} (${faults.brokerDownSeconds.toFixed(0)} s away), ` +
      `PostgreSQL restarts ${faults.pgRestarts}, dead letters replayed ${letters.length}, steps run again ${again}; ` +
      `datasets loaded ${DATASETS - unloaded.length} of ${DATASETS} (${triples} triples on their endpoints); ` +
      `lost ${lost.length}, duplicates ${duplicates.length}, stuck ${stuck.length}, failed ${failed.length}, unloaded ${unloaded.length}, unhandled ${rest.left.length}`;
    t.diagnostic(figures);
    t.diagnostic(`killed in this order: ${kills.map((k) => k.slice(6)).join(', ')}`);
    console.log(`chain fault test: ${figures}`);

    assert.ok(kills.length >= 5, `step processes were killed (${kills.length})`);
    assert.equal(fleet.all.length, processes, 'every process killed was replaced');
    assert.equal(faults.brokerStops, 1, 'the broker was stopped once');
    assert.equal(faults.pgRestarts, 1, 'PostgreSQL was restarted once');
    assert.deepEqual(rest.left, [], 'no message left unhandled outside the dead-letter topics');
    assert.deepEqual(lettersLeft, [], 'every dead letter replayed');
    assert.deepEqual(stuck, [], 'no step left queued or running');
    assert.deepEqual(failed, [], 'no step failed');
    assert.deepEqual(unloaded, [], "every dataset's endpoint answers its joined graphs' triples");
    for (const l of loads)
      assert.equal(l.graphs, UPLOADS / DATASETS, `${l.id}: a joined graph per upload, all loaded`);
    assert.deepEqual(lost.slice(0, 20), [], `lost ${lost.length}`);
    assert.deepEqual(duplicates.slice(0, 20), [], `duplicates ${duplicates.length}`);
    assert.equal(
      resources.length,
      expected.length,
      'nothing else: the uploads, their outputs and an endpoint per dataset',
    );
    assert.equal(statuses.length, UPLOADS, 'one chain per upload');
    for (const r of statuses)
      assert.deepEqual(
        (r.steps as Dict[]).map((s) => [s.step, s.state]),
        CHAIN_STEPS.map((step) => [step, 'done']),
      );
  } finally {
    await fleet.killAll();
    await broker.start();
    await postgres.start();
    await deleteNamespace(d.prefix);
  }
});
