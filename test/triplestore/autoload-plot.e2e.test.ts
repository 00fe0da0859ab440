// On a whole labld: LABLD_TRIPLESTORE_AUTOLOAD (off: convert leaves the dataset unloaded; on:
// the endpoint answers the joined graph's triples without Load being pressed) and the plot's
// JSON route (the datastore's rows reduced; private datasets for members only; random
// parameters answer 200 or a 4xx naming the parameter, never a 500).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from '../support/fc.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { person, type Person } from '../catalogue/actions/support.ts';
import { sleep } from '../support/wait.ts';
import { countOnEndpoint, joinedTriples, seededLabld, type Dict, type SeededLabld } from './chain-support.ts';

let seeded: SeededLabld;
let reader: Person;
let csvId: string;
const AUTOLOAD = 'LABLD_TRIPLESTORE_AUTOLOAD';

before(async () => {
  seeded = await seededLabld();
  const store = await openCatalogueStore({ dataDir: seeded.labld.dataDir });
  reader = await person(store, 'reader');
  await store.close();
});
after(async () => {
  delete process.env[AUTOLOAD];
  await seeded?.stop();
});

test('autoload off (the default): after convert the dataset stays unloaded and its endpoint answers nothing', async () => {
  delete process.env[AUTOLOAD];
  csvId = await seeded.uploadExample('manual');
  await seeded.converted(csvId);
  await sleep(1500); // time enough for a load that should not come
  const status = await seeded.call('labld_status_show', { id: 'manual' });
  assert.equal(status.triplestore, null);
  assert.equal(await countOnEndpoint(seeded.labld.url, 'manual'), 0);
  const names = ((await seeded.call('package_show', { id: 'manual' })).resources as Dict[]).map(
    (r) => r.name,
  );
  assert.ok(!names.includes('SPARQL'), `no endpoint resource: ${names.join(', ')}`);
});

test('autoload on: the endpoint answers the joined graph without pressing Load', async () => {
  process.env[AUTOLOAD] = 'true';
  const id = await seeded.uploadExample('auto', { private: true });
  await seeded.converted(id);
  const expected = await joinedTriples(seeded, 'auto');
  assert.ok(expected > 100, `the joined graph has its triples (${expected})`);
  const deadline = Date.now() + 30_000;
  while ((await countOnEndpoint(seeded.labld.url, 'auto', seeded.admin)) !== expected) {
    if (Date.now() > deadline) throw new Error('the dataset was not loaded after convert');
    await sleep(200);
  }
  const load = (await seeded.call('labld_status_show', { id: 'auto' })).triplestore as Dict;
  assert.equal(load.state, 'done');
  assert.equal(load.summary.triples, expected);
  assert.equal(load.summary.note, '1 graph');
  const endpoint = ((await seeded.call('package_show', { id: 'auto' })).resources as Dict[]).find(
    (r) => r.name === 'SPARQL',
  );
  assert.match(endpoint?.url ?? '', /\/dataset\/[0-9a-f-]{36}\/triplestore\/sparql$/);
  delete process.env[AUTOLOAD];
});

const plotUrl = (dataset: string, resource: string, params: Record<string, string | string[]>) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) search.append(k, one);
  return `${seeded.labld.url}/dataset/${dataset}/resource/${resource}/plot?${search.toString()}`;
};

test('the plot route: columns with units as axis titles; the points reduced from every row', async () => {
  const columns = (await (await fetch(plotUrl('manual', csvId, {}))).json()) as Dict;
  const labels = (columns.columns as Dict[]).map((c) => c.label);
  assert.ok(labels.includes('Standardkraft [N]'), labels.join(', '));
  assert.ok(labels.includes('Dehnung [%]'), labels.join(', '));
  const answer = await fetch(plotUrl('manual', csvId, { x: 'Dehnung', y: 'Standardkraft' }));
  assert.equal(answer.status, 200);
  const body = (await answer.json()) as Dict;
  assert.equal(body.x.label, 'Dehnung [%]');
  assert.equal(body.y.label, 'Standardkraft [N]');
  assert.ok(body.points.x.length <= 2000 && body.points.x.length > 100, String(body.points.x.length));
  // The highest force, asked of the datastore another way, is on the line.
  const top = await seeded.call('datastore_search', {
    resource_id: csvId,
    sort: 'Standardkraft desc',
    limit: 1,
  });
  assert.equal(Math.max(...body.points.y), top.records[0].Standardkraft);
  assert.equal(body.plotted_rows, top.total);
});

test('the plot route of a private dataset: members only', async () => {
  const resources = (await seeded.call('package_show', { id: 'auto' })).resources as Dict[];
  const csv = resources.find((r) => r.name === 'example.csv')!.id as string;
  const url = plotUrl('auto', csv, { x: 'Dehnung', y: 'Standardkraft', points: '100' });
  assert.equal((await fetch(url)).status, 404);
  assert.equal((await fetch(url, { headers: { authorization: reader.token } })).status, 404);
  await seeded.call('package_collaborator_create', { id: 'auto', user_id: 'reader', capacity: 'member' });
  const member = await fetch(url, { headers: { authorization: reader.token } });
  assert.equal(member.status, 200);
  assert.ok(((await member.json()) as Dict).points.x.length <= 100);
});

test('property: random plot parameters answer 200 or a 4xx whose detail names the parameter', async () => {
  const name = fc.oneof(
    fc.constantFrom('Dehnung', 'Standardkraft', 'Prüfzeit', '_id', 'Datum', ''),
    fc.string({ maxLength: 30 }),
  );
  const value = fc.oneof(name, fc.array(name, { minLength: 2, maxLength: 3 }));
  const points = fc.oneof(
    fc.integer({ min: -5, max: 20_000 }).map(String),
    fc.constantFrom('1e3', '2000.0', ' 50', ''),
    fc.string({ maxLength: 8 }),
  );
  await fc.assert(
    fc.asyncProperty(fc.record({ x: value, y: value, points }, { requiredKeys: [] }), async (params) => {
      const answer = await fetch(plotUrl('manual', csvId, params));
      const body = (await answer.json()) as Dict;
      if (answer.status === 200) return;
      assert.ok(answer.status >= 400 && answer.status < 500, `${answer.status} ${JSON.stringify(body)}`);
      assert.match(String(body.detail), /^(x|y|points)\b/, JSON.stringify({ params, body }));
    }),
    { numRuns: 60 },
  );
});

test('the Load form: refused without the CSRF token, refused to a reader, done for an editor', async () => {
  const url = `${seeded.labld.url}/dataset/manual/triplestore/load`;
  const post = (headers: Record<string, string>) =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: '',
    });
  assert.equal((await post({})).status, 403);
  await seeded.call('package_collaborator_create', { id: 'manual', user_id: 'reader', capacity: 'member' });
  assert.equal((await post({ authorization: reader.token })).status, 403);
  const pressed = await post({ authorization: seeded.admin.token });
  assert.equal(pressed.status, 303);
  assert.equal(pressed.headers.get('location'), '/dataset/manual#triplestore');
  const expected = await joinedTriples(seeded, 'manual');
  const deadline = Date.now() + 30_000;
  while ((await countOnEndpoint(seeded.labld.url, 'manual')) !== expected) {
    if (Date.now() > deadline) throw new Error('Load did not load the dataset');
    await sleep(200);
  }
});
