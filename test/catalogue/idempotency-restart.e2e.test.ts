// Issue 25, finding 5: an upload committed just before a crash, its answer lost, must answer
// its client's retry after the restart rather than make a second resource. labld runs as a
// child process (bench/labld-child.ts); 10 uploads with Idempotency-Keys are in flight when
// it is killed with SIGKILL, at the first commit; after the restart every upload is sent again
// with its key.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, test } from 'node:test';
import { action, startChild, type Child, type Dict } from '../../bench/labld-child.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { tempDir } from '../support/temp.ts';
import { api, type Answer } from './actions/support.ts';

const UPLOADS = 10;

function send(labld: Child, dataset: string, i: number): Promise<Answer> {
  const form = new FormData();
  form.set('package_id', dataset);
  // Not a chain trigger (.dat): the dataset's resources are these uploads only.
  form.set('upload', new Blob([`sample,force\ns${i},${i}\n`]), `upload-${i}.dat`);
  const headers = { authorization: labld.token, 'Idempotency-Key': `upload-key-${i}` };
  return api(labld.url, 'resource_create', { form, headers });
}

let running: Child | undefined;
after(() => running?.stop());

test('kill -9 during 10 uploads with Idempotency-Keys: after the restart each retry answers one resource per key', async (t) => {
  const dataDir = tempDir('labld-idem-');
  const first = await startChild(dataDir);
  running = first;
  const dataset = (await action(first, 'package_create', { name: 'killed-uploads' })).id as string;
  // The catalogue database beside the running labld, as `labld user` opens it: to see commits.
  const watcher = await openCatalogueStore({ dataDir });
  const exited = once(first.process, 'exit');
  const inFlight = Array.from({ length: UPLOADS }, (_, i) => send(first, dataset, i));
  let settled = false;
  void Promise.allSettled(inFlight).then(() => (settled = true));
  // Killed as soon as the first upload is committed: the others are being stored or committed,
  // their answers on the way.
  while (!settled && (await watcher.listResources(dataset)).length === 0) await sleep(2);
  first.process.kill('SIGKILL');
  await exited;
  await watcher.close();
  running = undefined;
  const answered = new Map<number, string>();
  for (const [i, outcome] of (await Promise.allSettled(inFlight)).entries()) {
    if (outcome.status === 'fulfilled' && outcome.value.status === 200) {
      answered.set(i, outcome.value.body.result.id as string);
    }
  }

  const second = await startChild(dataDir, first.token);
  running = second;
  const committed = ((await action(second, 'package_show', { id: dataset })).resources as Dict[]).length;
  t.diagnostic(`before the kill ${answered.size} answered; after the restart ${committed} committed`);
  const retries = await Promise.all(Array.from({ length: UPLOADS }, (_, i) => send(second, dataset, i)));
  assert.deepEqual(
    retries.map((r) => r.status),
    Array.from({ length: UPLOADS }, () => 200),
    JSON.stringify(retries.filter((r) => r.status !== 200).map((r) => r.body)),
  );
  for (const [i, id] of answered)
    assert.equal(retries[i]!.body.result.id, id, `upload ${i}: its first answer`);
  const resources = (await action(second, 'package_show', { id: dataset })).resources as Dict[];
  const names = resources.map((r) => r.name as string).sort();
  assert.deepEqual(
    names,
    Array.from({ length: UPLOADS }, (_, i) => `upload-${i}.dat`).sort(),
    'one resource per key',
  );
  assert.deepEqual(
    resources.map((r) => r.id).sort(),
    retries.map((r) => r.body.result.id).sort(),
    'each retry answers the resource of its key',
  );
});
