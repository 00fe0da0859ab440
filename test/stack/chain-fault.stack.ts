// Fault test of the automation chain across processes (issues 14 and 18), on the real Kafka
// broker (KAFKA_BROKERS) and PostgreSQL (LABLD_TEST_DATABASE_URL) that .ci/run starts: one
// catalogue gateway, two catalogue-requests consumers (whose outbox relays compete) and two
// processes of every chain step, each `labld serve … --transport kafka` on its own. 300 small
// CSVs are uploaded over 10 datasets through the Action API while, every few seconds, a random
// step process is SIGKILLed and started again. Then every upload has its three derived
// resources exactly once, and every step status is final (none left queued or running).
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, test } from 'node:test';
import { CHAIN_STEPS } from '../../lib/chain/index.ts';
import { api } from '../catalogue/actions/support.ts';
import { deleteNamespace, requireBroker } from '../kafka/broker.ts';
import { startRegistryDouble, type RegistryDouble } from '../kafka/registry-double.ts';
import { sleep } from '../support/wait.ts';
import { freshDatabase } from '../support/database.ts';
import { startChain, STEP_GROUPS } from './processes.ts';

const UPLOADS = 300;
const DATASETS = 10;
/** Uploads in flight at once (a client's parallel requests). */
const PARALLEL = 6;
/** A random step process is killed every KILL_EVERY_MS ± half of it. */
const KILL_EVERY_MS = 3_000;
/** Kills go on this long after the last upload, while the chain catches up. */
const KILL_AFTER_UPLOADS_MS = 20_000;
const SETTLE_TIMEOUT_MS = 240_000;

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
let databaseUrl: string;
let dropDatabase: () => Promise<void>;

before(async () => {
  await requireBroker();
  registry = await startRegistryDouble();
  ({ url: databaseUrl, drop: dropDatabase } = await freshDatabase('labld_fault'));
});
after(async () => {
  await registry?.close();
  await dropDatabase?.();
});

test(`${UPLOADS} uploads over ${DATASETS} datasets while step processes are SIGKILLed: every upload's resources exactly once, every status final`, async (t) => {
  const starting = Date.now();
  const { d, fleet, gateway, token } = await startChain(registry.url, databaseUrl, 2);
  try {
    const headers = { authorization: token };
    const startSeconds = (Date.now() - starting) / 1000;
    // Each process is ready, having asked the servers it needs: the broker, the registry, PostgreSQL.
    for (const p of fleet.all) {
      const ready = await fetch(`${p.url}/readyz`);
      const { checks } = (await ready.json()) as { checks: Record<string, string> };
      assert.equal(ready.status, 200, `${p.name}: ${JSON.stringify(checks)}`);
      for (const server of ['bus', 'schema-registry', 'catalogue-store', 'datastore'])
        assert.equal(checks[server], 'ok', `${p.name} checks ${server}`);
    }
    const url = gateway.url;
    const call = async (action: string, body: Dict): Promise<Dict> => {
      const answer = await api(url, action, { body, headers });
      assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
      return answer.body.result as Dict;
    };
    const upload = async (fields: Dict, content: string, name: string): Promise<Dict> => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.set(k, String(v));
      form.set('upload', new Blob([content]), name);
      const answer = await api(url, 'resource_create', { form, headers });
      assert.equal(answer.status, 200, `resource_create ${name}: ${JSON.stringify(answer.body.error)}`);
      return answer.body.result as Dict;
    };

    await call('group_create', { name: 'mappings' });
    await call('package_create', { name: 'mapping-library' });
    await call('member_create', { id: 'mappings', object: 'mapping-library', object_type: 'package' });
    await upload({ package_id: 'mapping-library' }, MAPPING, 'fault-map.yaml');
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
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let n = next++; n < UPLOADS; n = next++) {
          const csv = `sample,force\nS${n}-a,${n}.5\nS${n}-b,${n + 1}.25\n`;
          await upload({ package_id: datasets[n % DATASETS] }, csv, `run-${n}.csv`);
        }
      }),
    );
    uploadsEndedAt = Date.now();
    const uploadSeconds = (Date.now() - started) / 1000;

    // The chain comes to rest: every step of every upload done or failed.
    const final = (state: string) => state === 'done' || state === 'failed';
    let statuses: Dict[] = [];
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      statuses = (await Promise.all(datasets.map((id) => call('labld_status_show', { id })))).flatMap(
        (s) => s.resources as Dict[],
      );
      const resting =
        statuses.length === UPLOADS &&
        statuses.every(
          (r) =>
            (r.steps as Dict[]).every((s) => final(s.state)) &&
            ((r.steps as Dict[]).length === CHAIN_STEPS.length ||
              (r.steps as Dict[]).some((s) => s.state === 'failed')),
        );
      if (resting || Date.now() > deadline) break;
      await sleep(2000);
    }
    stopKilling.abort();
    await killer;
    await fleet.started();
    const settleSeconds = (Date.now() - started) / 1000;

    // Every upload: its derived resources exactly once, none missing, none twice.
    const resources = (await Promise.all(datasets.map((id) => call('package_show', { id })))).flatMap((p) =>
      (p.resources as Dict[]).map((r) => r.name as string),
    );
    const expected = Array.from({ length: UPLOADS }, (_, n) => derivedOf(`run-${n}`)).flat();
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
      `${fleet.all.length} processes started in ${startSeconds.toFixed(0)} s; uploads ${UPLOADS} over ${DATASETS} datasets in ${uploadSeconds.toFixed(0)} s, chain at rest after ` +
      `${settleSeconds.toFixed(0)} s; kills ${kills.length} (${perGroup.join(', ')}), steps run again ` +
      `${again}; lost ${lost.length}, duplicates ${duplicates.length}, stuck ${stuck.length}, failed ${failed.length}`;
    t.diagnostic(figures);
    t.diagnostic(`killed in this order: ${kills.map((k) => k.slice(6)).join(', ')}`);
    console.log(`chain fault test: ${figures}`);

    assert.ok(kills.length >= 5, `step processes were killed (${kills.length})`);
    assert.deepEqual(stuck, [], 'no step left queued or running');
    assert.deepEqual(failed, [], 'no step failed');
    assert.deepEqual(lost.slice(0, 20), [], `lost ${lost.length}`);
    assert.deepEqual(duplicates.slice(0, 20), [], `duplicates ${duplicates.length}`);
    assert.equal(resources.length, expected.length, 'nothing else: the uploads and their outputs');
    assert.equal(statuses.length, UPLOADS, 'one chain per upload');
    for (const r of statuses)
      assert.deepEqual(
        (r.steps as Dict[]).map((s) => [s.step, s.state]),
        CHAIN_STEPS.map((step) => [step, 'done']),
      );
  } finally {
    await fleet.killAll();
    await deleteNamespace(d.prefix);
  }
});
