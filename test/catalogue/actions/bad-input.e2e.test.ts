// Bad input to the Action API over HTTP (the list): an unknown action, a write by GET,
// missing and wrong-typed parameters, a taken or invalid name, an upload over the limit, a
// filter on a missing column, a sort injection — each a CKAN-shaped 4xx naming the field, and
// nothing changed. Then random bodies to every action: never a 5xx, always CKAN's envelope.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from '../../support/fc.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { ACTION_NAMES } from '../../../lib/contracts/catalogue.ts';
import { startLabld, type Running } from '../../support/labld.ts';
import { api, person, type Person } from './support.ts';

let labld: Running & { dataDir: string };
let alice: Person;
let rid: string;
const UPLOAD_LIMIT = 1024;

before(async () => {
  // Read when the gateway is made (and by the consumer's workers, which share this environment).
  process.env.LABLD_UPLOAD_LIMIT = String(UPLOAD_LIMIT);
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  alice = await person(store, 'alice');
  await store.close();
  const headers = { authorization: alice.token };
  await api(labld.url, 'package_create', { body: { name: 'kept', title: 'Kept' }, headers });
  rid = (
    await api(labld.url, 'resource_create', {
      body: { package_id: 'kept', url: 'https://example.org/k.csv' },
      headers,
    })
  ).body.result.id;
  await api(labld.url, 'datastore_create', {
    body: {
      resource_id: rid,
      fields: [{ id: 'name', type: 'text' }],
      records: [{ name: 'a' }, { name: 'b' }],
    },
    headers,
  });
});
after(async () => {
  delete process.env.LABLD_UPLOAD_LIMIT;
  await labld?.stop();
});

const as = () => ({ authorization: alice.token });

/** The dataset and its table as they were made in `before`. */
async function unchanged(): Promise<void> {
  const shown = await api(labld.url, 'package_show', { query: { id: 'kept' } });
  assert.equal(shown.body.result.title, 'Kept');
  assert.equal(shown.body.result.num_resources, 1);
  const rows = await api(labld.url, 'datastore_search', { query: { resource_id: rid } });
  assert.equal(rows.body.result.total, 2);
  assert.deepEqual(((await api(labld.url, 'package_list')).body.result as string[]).sort(), ['kept']);
}

test('an unknown action: 400 "Action name not known"', async () => {
  const { status, body } = await api(labld.url, 'package_frobnicate', { body: {}, headers: as() });
  assert.equal(status, 400);
  assert.deepEqual(body.error, {
    __type: 'Bad Request',
    message: 'Bad request - Action name not known: package_frobnicate',
  });
  assert.equal(body.success, false);
});

test('a write by GET: 400, as CKAN, and nothing written', async () => {
  const { status, body } = await api(labld.url, 'package_delete', { query: { id: 'kept' }, headers: as() });
  assert.equal(status, 400);
  assert.match(body.error.message, /Please use POST method/);
  await unchanged();
});

test('a body that is not an object, or not JSON: 400', async () => {
  const list = await api(labld.url, 'package_create', { body: ['kept'], headers: as() });
  assert.equal(list.status, 400);
  assert.match(list.body.error.message, /needs to be a dictionary/);
  const response = await fetch(`${labld.url}/api/3/action/package_create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...as() },
    body: '{"name": ',
  });
  assert.equal(response.status, 400);
  const body = (await response.json()) as { success: boolean; error: { __type: string } };
  assert.equal(body.success, false);
  assert.equal(body.error.__type, 'Validation Error');
});

test('missing and wrong-typed parameters: 409 naming the field', async () => {
  const missing = await api(labld.url, 'package_create', { body: { title: 'no name' }, headers: as() });
  assert.equal(missing.status, 409);
  assert.deepEqual(missing.body.error, { __type: 'Validation Error', name: ['Missing value'] });
  const typed = await api(labld.url, 'package_patch', {
    body: { id: 'kept', private: 'perhaps' },
    headers: as(),
  });
  assert.equal(typed.status, 409);
  assert.deepEqual(Object.keys(typed.body.error), ['__type', 'private']);
  const rows = await api(labld.url, 'package_search', { query: { rows: 'ten' } });
  assert.equal(rows.status, 409);
  assert.ok(rows.body.error.rows);
  await unchanged();
});

test('a taken name and an invalid name: 409 on name, the dataset untouched', async () => {
  const taken = await api(labld.url, 'package_create', {
    body: { name: 'kept', title: 'Other' },
    headers: as(),
  });
  assert.equal(taken.status, 409);
  assert.deepEqual(Object.keys(taken.body.error), ['__type', 'name']);
  assert.match(taken.body.error.name[0], /^"kept" is not available /);
  const invalid = await api(labld.url, 'package_create', { body: { name: 'Kept Data!' }, headers: as() });
  assert.equal(invalid.status, 409);
  assert.deepEqual(Object.keys(invalid.body.error), ['__type', 'name']);
  await unchanged();
});

test('an upload over LABLD_UPLOAD_LIMIT: 413 naming the limit, no resource made', async () => {
  const form = new FormData();
  form.set('package_id', 'kept');
  form.set('upload', new Blob(['x'.repeat(UPLOAD_LIMIT + 1)]), 'big.csv');
  const { status, body } = await api(labld.url, 'resource_create', { form, headers: as() });
  assert.equal(status, 413);
  assert.deepEqual(body.error, {
    __type: 'Validation Error',
    body: ['body.upload: larger than the limit of 1 KB'],
  });
  await unchanged();
});

test('a filter on a missing column and a sort injection: 409 naming the parameter, the table intact', async () => {
  const filter = await api(labld.url, 'datastore_search', {
    body: { resource_id: rid, filters: { nope: 'a' } },
  });
  assert.equal(filter.status, 409);
  assert.deepEqual(Object.keys(filter.body.error), ['__type', 'filters']);
  for (const sort of ['name; DROP TABLE x', 'name desc; DROP TABLE packages', '"name" ; --']) {
    const injected = await api(labld.url, 'datastore_search', { query: { resource_id: rid, sort } });
    assert.equal(injected.status, 409, sort);
    assert.deepEqual(Object.keys(injected.body.error), ['__type', 'sort']);
  }
  const search = await api(labld.url, 'package_search', { query: { sort: 'name; DROP TABLE packages' } });
  assert.equal(search.status, 409);
  await unchanged();
});

test('random bodies to every action: success or a CKAN-shaped 4xx, never a 5xx', async () => {
  const names = fc.oneof(
    fc.constantFrom(...ACTION_NAMES),
    fc.string({ maxLength: 20 }).map((s) => `x${encodeURIComponent(s)}`),
  );
  await fc.assert(
    fc.asyncProperty(names, fc.jsonValue({ maxDepth: 3 }), fc.boolean(), async (action, body, signed) => {
      const { status, body: answer } = await api(labld.url, action, { body, headers: signed ? as() : {} });
      assert.ok(status === 200 || (status >= 400 && status < 500), `${action}: ${status}`);
      assert.equal(typeof answer.help, 'string');
      assert.equal(answer.success, status === 200);
      if (status !== 200) assert.equal(typeof answer.error.__type, 'string');
    }),
    { numRuns: 80 },
  );
});
