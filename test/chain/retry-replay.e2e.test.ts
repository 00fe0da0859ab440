// Retry of one step and the chain's dead letters on a whole labld (issue 14, item 3), on the
// transport LABLD_TEST_TRANSPORT names: a convert that fails because the mapping's template is
// not there (its host is down) is recorded, dead-lettered and collected for the dataset's
// admins; once the host is back, Retry of that step — or a Replay of its dead letter — runs
// convert alone again, and the dead letter leaves the list.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { seedFixture } from '../support/shared.ts';
import { sleep } from '../support/wait.ts';
import { api, person, type Person } from '../catalogue/actions/support.ts';
import { readFileSync } from 'node:fs';
import { startLibraryLabld, type LibraryLabld } from './library-labld.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

let running: LibraryLabld;
let labld: LibraryLabld['labld'];
let alice: Person; // sysadmin
let bob: Person; // editor of the datasets, not their admin

async function call(who: Person, action: string, body: Dict): Promise<Dict> {
  const answer = await api(labld.url, action, { body, headers: { authorization: who.token } });
  assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
  return answer.body.result as Dict;
}

async function refused(who: Person, action: string, body: Dict): Promise<number> {
  const answer = await api(labld.url, action, { body, headers: { authorization: who.token } });
  assert.equal(answer.body.success, false);
  return answer.status;
}

async function upload(dataset: string, file: Blob, name: string): Promise<string> {
  const form = new FormData();
  form.set('package_id', dataset);
  form.set('upload', file, name);
  const answer = await api(labld.url, 'resource_create', { form, headers: { authorization: alice.token } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body.error));
  return answer.body.result.id as string;
}

async function steps(resourceId: string): Promise<Dict[]> {
  const status = await call(alice, 'labld_status_show', { resource_id: resourceId });
  return (status.resources[0]?.steps as Dict[] | undefined) ?? [];
}

/** Polls until `done` holds of the resource's steps. */
async function until(resourceId: string, done: (s: Dict[]) => boolean, what: string): Promise<Dict[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const now = await steps(resourceId);
    if (done(now)) return now;
    if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(now)}`);
    await sleep(100);
  }
}

const stateOf = (s: Dict[], step: string) => s.find((x) => x.step === step)?.state as string | undefined;

async function deadLetters(dataset: string): Promise<Dict[]> {
  return (await call(alice, 'labld_dead_letter_list', { id: dataset })).dead_letters as Dict[];
}

async function untilDeadLetters(dataset: string, count: number): Promise<Dict[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const letters = await deadLetters(dataset);
    if (letters.length === count) return letters;
    if (Date.now() > deadline) throw new Error(`expected ${count} dead letters: ${JSON.stringify(letters)}`);
    await sleep(100);
  }
}

before(async () => {
  running = await startLibraryLabld();
  ({ labld, root: alice } = running);
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  bob = await person(store, 'bob');
  await store.close();
  for (const name of ['retried', 'replayed']) {
    await call(alice, 'package_create', { name });
    await call(alice, 'package_collaborator_create', { id: name, user_id: 'bob', capacity: 'editor' });
  }
});
after(() => running?.stop());

const example = () => new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]);

/** example.csv uploaded while the template's host is down: convert fails, the rest is done. */
async function failedConvert(dataset: string): Promise<{ id: string; before: Dict[] }> {
  running.template.up = false;
  const id = await upload(dataset, example(), 'example.csv');
  const before = await until(id, (s) => stateOf(s, 'convert') === 'failed', 'convert fails');
  assert.deepEqual(
    before.map((s) => s.state),
    ['done', 'done', 'done', 'done', 'failed'],
  );
  return { id, before };
}

test('Retry of a failed convert runs convert alone again, once its cause is fixed', async () => {
  const { id, before } = await failedConvert('retried');
  const failure = before[4]!.failure as Dict;
  assert.match(failure.detail as string, /DIN_EN_ISO_527-3/, 'the error names the template');
  assert.ok((failure.action as string).length > 0, 'and says what to do');
  // The dead letter reaches the dataset's admins (here the sysadmin), with the error.
  const [letter] = await untilDeadLetters('retried', 1);
  assert.equal(letter!.group, 'chain-convert');
  assert.equal(letter!.resource_id, id);
  assert.match(letter!.error as string, /DIN_EN_ISO_527-3/);
  // An editor may retry, but not see or replay dead letters.
  assert.equal(await refused(bob, 'labld_dead_letter_list', { id: 'retried' }), 403);
  assert.equal(await refused(bob, 'labld_dead_letter_replay', { id: letter!.id }), 403);
  // A step that is not failed is not retried; a step that does not exist is named.
  assert.equal(await refused(bob, 'labld_chain_retry', { resource_id: id, step: 'import' }), 409);
  const bogus = await api(labld.url, 'labld_chain_retry', {
    body: { resource_id: id, step: 'load' },
    headers: { authorization: bob.token },
  });
  assert.equal(bogus.status, 409);
  assert.match(JSON.stringify(bogus.body.error.step), /must be one of annotate, import/);
  assert.equal(await refused(alice, 'labld_dead_letter_replay', {}), 409);

  running.template.up = true;
  const retried = await call(bob, 'labld_chain_retry', { resource_id: id, step: 'convert' });
  assert.equal(retried.run, before[0]!.run, 'the same run');
  const after = await until(id, (s) => stateOf(s, 'convert') === 'done', 'convert done after Retry');
  // Only convert ran again: the steps before it kept their times, convert is on its second attempt.
  assert.deepEqual(
    after.slice(0, 4).map((s) => s.finishedAt),
    before.slice(0, 4).map((s) => s.finishedAt),
  );
  assert.equal(after[4]!.attempt, 2);
  const names = ((await call(alice, 'package_show', { id: 'retried' })).resources as Dict[]).map(
    (r) => r.name,
  );
  assert.deepEqual(names, ['example.csv', 'example-metadata.jsonld', 'example.ttl', 'example-joined.ttl']);
  // Retry replaced that step's dead letter.
  assert.deepEqual(await deadLetters('retried'), []);
});

test('Replay of a dead letter re-publishes it to its step and it leaves the list', async () => {
  const { id } = await failedConvert('replayed');
  const [letter] = await untilDeadLetters('replayed', 1);
  running.template.up = true;
  const replayed = await call(alice, 'labld_dead_letter_replay', { id: letter!.id });
  assert.equal(replayed.replayed, true);
  assert.deepEqual(await deadLetters('replayed'), [], 'gone from the list at once');
  const after = await until(id, (s) => stateOf(s, 'convert') === 'done', 'convert done after the replay');
  assert.equal(after[4]!.attempt, 2);
  // Replayed once: a second replay of the same dead letter is not found.
  assert.equal(await refused(alice, 'labld_dead_letter_replay', { id: letter!.id }), 404);
  // The dead letter that failed again would be listed again; this one passed: none.
  await sleep(300);
  assert.deepEqual(await deadLetters('replayed'), []);
});
