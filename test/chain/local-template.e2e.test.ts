// Issue 28: a mapping may name a template stored beside it in the catalogue. The template's URL
// is the catalogue's own download URL, read from the catalogue's store with the rights of the
// upload's owner — never over HTTP: here the fetch guard allows no private address at all
// (LABLD_FETCH_ALLOW empty), so any fetch of labld's loopback URL would be refused.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { readSeed, seedFixture } from '../support/shared.ts';
import { sleep } from '../support/wait.ts';
import { api, person, type Person } from '../catalogue/actions/support.ts';
import { TEMPLATE_URL } from '../converter/support.ts';
import { readFileSync } from 'node:fs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

let labld: Awaited<ReturnType<typeof startLabld>>;
let alice: Person;
let bob: Person;
const saved = process.env['LABLD_FETCH_ALLOW'];

async function call(who: Person, action: string, body: Dict): Promise<Dict> {
  const answer = await api(labld.url, action, { body, headers: { authorization: who.token } });
  assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
  return answer.body.result as Dict;
}

async function upload(who: Person, dataset: string, file: Blob, name: string): Promise<Dict> {
  const form = new FormData();
  form.set('package_id', dataset);
  form.set('upload', file, name);
  const answer = await api(labld.url, 'resource_create', { form, headers: { authorization: who.token } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body.error));
  return answer.body.result as Dict;
}

/** The steps of a resource once its chain has come to rest (convert done or failed, or a step failed). */
async function settled(who: Person, resourceId: string): Promise<Dict[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = await call(who, 'labld_status_show', { resource_id: resourceId });
    const steps = (status.resources as Dict[]).find((r) => r.resource_id === resourceId)?.steps as
      Dict[] | undefined;
    const resting = steps?.every((s) => s.state === 'done' || s.state === 'failed');
    const ended = steps?.some((s) => s.state === 'failed' || s.step === 'convert');
    if (steps && resting && ended) return steps;
    if (Date.now() > deadline) throw new Error(`the chain did not come to rest: ${JSON.stringify(steps)}`);
    await sleep(200);
  }
}

/** A library dataset holding the seed template and the seed mapping pointing at it; the template's URL. */
async function library(name: string, isPrivate: boolean): Promise<string> {
  await call(alice, 'package_create', { name, private: isPrivate });
  await call(alice, 'member_create', { id: 'mappings', object: name, object_type: 'package' });
  const template = await upload(
    alice,
    name,
    new Blob([readSeed('maptomethod/templates/DIN_EN_ISO_527-3.drawio.ttl')]),
    'DIN_EN_ISO_527-3.drawio.ttl',
  );
  const templateUrl = template.url as string;
  const mapping = readSeed('rdfconverter/csvw-template-map.yaml').replaceAll(TEMPLATE_URL, templateUrl);
  await upload(alice, name, new Blob([mapping]), `${name}-map.yaml`);
  return templateUrl;
}

before(async () => {
  process.env['LABLD_FETCH_ALLOW'] = '';
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  alice = await person(store, 'alice', true);
  bob = await person(store, 'bob');
  await store.close();
  // The mapping library's group `mappings` is made at first start.
});
after(async () => {
  await labld?.stop();
  if (saved === undefined) delete process.env['LABLD_FETCH_ALLOW'];
  else process.env['LABLD_FETCH_ALLOW'] = saved;
});

/** labld's base URL (BASE_URL, as the catalogue writes its download URLs). */
const baseOf = (running: Running) => process.env['BASE_URL'] ?? running.url;

const csv = () => new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]);

test('a mapping whose template is a resource of the same catalogue converts, with no network fetch allowed', async () => {
  // A private library: its template is alice's, and read with the rights of whoever uploaded the data.
  const templateUrl = await library('library', true);
  assert.ok(templateUrl.startsWith(`${baseOf(labld)}/dataset/`), templateUrl);
  await call(alice, 'package_create', { name: 'tensile' });
  const source = await upload(alice, 'tensile', csv(), 'example.csv');
  const steps = await settled(alice, source.id as string);
  const convert = steps.find((s) => s.step === 'convert');
  assert.equal(convert?.state, 'done', JSON.stringify(steps));
  const joined = ((await call(alice, 'package_show', { id: 'tensile' })).resources as Dict[]).find(
    (r) => r.name === 'example-joined.ttl',
  );
  assert.ok(joined, 'the joined graph is stored');
  const graph = await fetch(joined.url as string, { headers: { authorization: alice.token } });
  // The template's own statements are in the joined graph: the template was read.
  assert.match(await graph.text(), /Specimen/);
});

test('the template is read with the rights of the upload’s owner: bob may not read alice’s private library', async () => {
  const denied = await fetch(`${baseOf(labld)}/dataset/library`, { headers: { authorization: bob.token } });
  assert.equal(denied.status, 404, 'bob cannot see the private library');
  await call(bob, 'package_create', { name: 'tensile-bob' });
  const source = await upload(bob, 'tensile-bob', csv(), 'example.csv');
  const steps = await settled(bob, source.id as string);
  const convert = steps.find((s) => s.step === 'convert');
  assert.equal(convert?.state, 'failed', JSON.stringify(steps));
  assert.match(JSON.stringify(convert), /template/);
  assert.match(JSON.stringify(convert), /resource not found/);
});

test('the services read a URL of this catalogue with the caller’s rights: their API token', async () => {
  const resources = (await call(alice, 'package_show', { id: 'library' })).resources as Dict[];
  const template = resources.find((r) => r.name === 'DIN_EN_ISO_527-3.drawio.ttl')!;
  const types = (who?: Person) =>
    fetch(`${labld.url}/mapper/api/types?url=${encodeURIComponent(template.url as string)}`, {
      headers: who ? { authorization: who.token } : {},
    });
  for (const who of [undefined, bob]) {
    const refused = await types(who);
    const body = (await refused.json()) as { detail: string };
    assert.equal(refused.status, 404, body.detail);
    assert.match(body.detail, /^url: resource not found/);
  }
  const allowed = await types(alice);
  const listed = (await allowed.json()) as string[];
  assert.equal(allowed.status, 200, JSON.stringify(listed));
  assert.ok(listed.includes('http://www.w3.org/2002/07/owl#NamedIndividual'), JSON.stringify(listed));
});
