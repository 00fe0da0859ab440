// Scale-out on a real broker: 2 gateway processes and 2 consumer processes of the annotator,
// each `labld serve … --transport kafka` on its own, sharing only the broker, the schema
// registry (test double) and the blob store. 200 concurrent uploads through both gateways:
// each is answered once, with its own descriptor, by the gateway that took it; the consumers
// handled 200 requests between them, each some.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { requireBroker, deleteNamespace, groupMembers } from './broker.ts';
import { startRegistryDouble, type RegistryDouble } from './registry-double.ts';
import { deployment, serve, metric, type LabldProcess } from './processes.ts';

const REQUESTS = 200;
const LABLD = new URL('../../bin/labld.js', import.meta.url).pathname;

let registry: RegistryDouble;
before(async () => {
  await requireBroker();
  registry = await startRegistryDouble();
});
after(() => registry?.close());

test('2 gateways + 2 consumers: 200 concurrent requests, each answered once by the gateway that took it', async () => {
  const d = deployment(registry.url);
  const running: LabldProcess[] = [];
  try {
    // As a deployment does it: topics first (`labld topics create`), then the processes.
    const created = execFileSync(process.execPath, [LABLD, 'topics', 'create'], {
      env: d.env,
      encoding: 'utf8',
    });
    assert.match(created, /topics created or verified on kafka/);
    const consumers = await Promise.all([serve(d, 'annotator-requests'), serve(d, 'annotator-requests')]);
    const gateways = await Promise.all([serve(d, 'annotator'), serve(d, 'annotator')]);
    running.push(...consumers, ...gateways);
    for (let tries = 0; (await groupMembers(`${d.prefix}annotator-requests`)) < 2; tries += 1) {
      assert.ok(tries < 300, 'both consumers joined the group');
      await sleep(100);
    }

    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, i) => {
        const gateway = gateways[i % 2]!;
        const form = new FormData();
        form.set('file', new Blob([`sample_${i},force\n${i},1.5\n`], { type: 'text/csv' }), `run-${i}.csv`);
        const response = await fetch(`${gateway.url}/annotator/api/annotate_upload`, {
          method: 'POST',
          body: form,
        });
        return { i, status: response.status, text: await response.text() };
      }),
    );
    for (const { i, status, text } of answers) {
      assert.equal(status, 200, `request ${i}: ${text.slice(0, 300)}`);
      // Its own descriptor: its file and its own first column, nobody else's.
      assert.match(text, new RegExp(`/run-${i}\\.csv"`), `request ${i} got its own file`);
      assert.match(text, new RegExp(`"sample_${i}"`), `request ${i} got its own columns`);
      assert.doesNotMatch(text, new RegExp(`"sample_(?!${i}")\\d+"`), `request ${i} got no other columns`);
    }

    // Each gateway sent its half and got exactly those replies: none arrived late or strayed.
    for (const gateway of gateways) {
      assert.equal(
        await metric(gateway.url, 'labld_http_request_seconds_count', {
          route: '/api/annotate_upload',
          status: '200',
        }),
        REQUESTS / 2,
      );
      assert.equal(await metric(gateway.url, 'labld_bus_late_replies_total'), 0);
    }
    // The consumers handled 200 requests between them, each some: one request, one handling.
    const handled = await Promise.all(
      consumers.map((c) => metric(c.url, 'labld_bus_handle_seconds_count', { group: 'annotator-requests' })),
    );
    assert.equal(handled[0]! + handled[1]!, REQUESTS, `handled per consumer: ${handled.join(', ')}`);
    assert.ok(
      handled.every((n) => n > 0),
      `both consumers worked: ${handled.join(', ')}`,
    );

    // SIGTERM: each process finishes, commits, leaves its group, exits 0.
    const codes = await Promise.all(running.splice(0).map((p) => p.stop()));
    assert.deepEqual(codes, [0, 0, 0, 0]);
  } finally {
    await Promise.all(running.map((p) => p.kill9()));
    await deleteNamespace(d.prefix);
  }
});

test('no consumer running: the gateway answers 504 with a detail; the reply that comes later is dropped and counted', async () => {
  const d = deployment(registry.url);
  d.env['LABLD_REQUEST_TIMEOUT_MS'] = '1500';
  const running: LabldProcess[] = [];
  try {
    const gateway = await serve(d, 'annotator');
    running.push(gateway);
    const response = await fetch(`${gateway.url}/annotator/info`);
    assert.equal(response.status, 504);
    const body = (await response.json()) as { detail: string };
    assert.match(body.detail, /no reply/);
    // A consumer that starts now finds the request on its topic and answers it, too late.
    running.push(await serve(d, 'annotator-requests'));
    for (let tries = 0; (await metric(gateway.url, 'labld_bus_late_replies_total')) < 1; tries += 1) {
      assert.ok(tries < 300, 'the late reply was counted');
      await sleep(100);
    }
    assert.equal((await fetch(`${gateway.url}/annotator/info`)).status, 200, 'later requests are answered');
  } finally {
    await Promise.all(running.map((p) => p.kill9()));
    await deleteNamespace(d.prefix);
  }
});
