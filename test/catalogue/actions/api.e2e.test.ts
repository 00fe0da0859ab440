// The Action API over HTTP on a whole labld (gateway → catalogue topic → consumer → actions):
// CKAN's envelope, GET for reads and POST for all, multipart uploads, the token in the
// Authorization header (bare, Bearer) or X-CKAN-API-Key, CKAN's errors and statuses.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { startLabld, testTransport, type Running } from '../../support/labld.ts';
import { api, person, type Person } from './support.ts';

let labld: Running & { dataDir: string };
let alice: Person;
let bob: Person;

before(async () => {
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  alice = await person(store, 'alice');
  bob = await person(store, 'bob');
  await store.close();
});
after(() => labld?.stop());

const auth = (who: Person, scheme = '') => ({ authorization: `${scheme}${who.token}` });

test('status_show by GET: the envelope {help, success, result}', async () => {
  const { status, body } = await api(labld.url, 'status_show');
  assert.equal(status, 200);
  assert.deepEqual(Object.keys(body), ['help', 'success', 'result']);
  assert.equal(body.success, true);
  assert.match(body.help!, /\/api\/3\/action\/help_show\?name=status_show$/);
  assert.equal(body.result.site_title, 'labld');
});

test('the token as CKAN sends it (bare), as Bearer, or in X-CKAN-API-Key', async () => {
  const bare = await api(labld.url, 'package_create', { body: { name: 'bare' }, headers: auth(alice) });
  assert.equal(bare.status, 200);
  assert.equal(bare.body.result.creator_user_id, alice.user.id);
  const bearer = await api(labld.url, 'package_create', {
    body: { name: 'bearer' },
    headers: auth(alice, 'Bearer '),
  });
  assert.equal(bearer.status, 200);
  const key = await api(labld.url, 'package_create', {
    body: { name: 'api-key', private: true },
    headers: { 'x-ckan-api-key': alice.token },
  });
  assert.equal(key.status, 200);
  assert.equal(key.body.result.private, true);
});

test('reads by GET with query parameters; a private dataset is Not Found to others', async () => {
  const shown = await api(labld.url, 'package_show', { query: { id: 'bare' } });
  assert.equal(shown.status, 200);
  assert.equal(shown.body.result.name, 'bare');
  const hidden = await api(labld.url, 'package_show', { query: { id: 'api-key' }, headers: auth(bob) });
  assert.equal(hidden.status, 404);
  assert.deepEqual(hidden.body.error, {
    __type: 'Not Found Error',
    message: 'Not found: id: dataset not found: api-key',
  });
  assert.equal(hidden.body.success, false);
  const own = await api(labld.url, 'package_show', { query: { id: 'api-key' }, headers: auth(alice) });
  assert.equal(own.status, 200);
});

test('writes without a token or with a wrong one: 403 Authorization Error', async () => {
  const anonymous = await api(labld.url, 'package_create', { body: { name: 'nobody' } });
  assert.equal(anonymous.status, 403);
  assert.equal(anonymous.body.error.__type, 'Authorization Error');
  const broken = await api(labld.url, 'package_show', {
    query: { id: 'bare' },
    headers: { authorization: 'not-a-token' },
  });
  assert.equal(broken.status, 403);
  assert.match(broken.body.error.message, /^Access denied: Authorization: not a valid labld API token/);
  const editing = await api(labld.url, 'package_patch', {
    body: { id: 'bare', title: 'x' },
    headers: auth(bob),
  });
  assert.equal(editing.status, 403);
});

test('resource_create with a multipart upload; the file is stored and the resource points at it', async () => {
  const form = new FormData();
  form.set('package_id', 'bare');
  form.set('description', 'raw data');
  form.set('upload', new Blob(['sample,force\na,1\nb,2\n'], { type: 'text/csv' }), 'forces.csv');
  const { status, body } = await api(labld.url, 'resource_create', { form, headers: auth(alice) });
  assert.equal(status, 200);
  const res = body.result;
  assert.deepEqual(
    [res.name, res.format, res.size, res.url_type, res.description],
    ['forces.csv', 'CSV', 21, 'upload', 'raw data'],
  );
  const download = await api(labld.url, 'labld_resource_download', { query: { id: res.id } });
  assert.equal(download.body.result.size, 21);
  assert.equal(download.body.result.filename, 'forces.csv');
});

test('datastore_search by GET with filters and sort as JSON text', async () => {
  // A link, not an upload: an uploaded CSV's table is the chain's import to fill (it would race this one).
  const link = await api(labld.url, 'resource_create', {
    body: { package_id: 'bare', url: 'https://example.org/forces.csv', name: 'forces (link)' },
    headers: auth(alice),
  });
  assert.equal(link.status, 200);
  const rid = link.body.result.id as string;
  const made = await api(labld.url, 'datastore_create', {
    body: {
      resource_id: rid,
      fields: [
        { id: 'sample', type: 'text' },
        { id: 'force', type: 'numeric' },
      ],
      records: [
        { sample: 'a', force: 1 },
        { sample: 'b', force: 20 },
        { sample: 'c', force: 3 },
      ],
    },
    headers: auth(alice),
  });
  assert.equal(made.status, 200);
  const found = await api(labld.url, 'datastore_search', {
    query: { resource_id: rid, filters: JSON.stringify({ sample: ['b', 'c'] }), sort: 'force desc' },
  });
  assert.equal(found.status, 200);
  assert.deepEqual(
    found.body.result.records.map((r: { sample: string }) => r.sample),
    ['b', 'c'],
  );
  assert.equal(found.body.result.total, 2);
});

test('an upload to an action that takes none is refused naming upload', async () => {
  const form = new FormData();
  form.set('name', 'with-file');
  form.set('upload', new Blob(['x']), 'x.txt');
  const { status, body } = await api(labld.url, 'package_create', { form, headers: auth(alice) });
  assert.equal(status, 409);
  assert.deepEqual(body.error, { __type: 'Validation Error', upload: ['package_create takes no upload'] });
});

test('ckanapi’s path /api/action/{name} answers too', async () => {
  const response = await fetch(`${labld.url}/api/action/package_list`);
  assert.equal(response.status, 200);
  assert.deepEqual(((await response.json()) as { result: string[] }).result, ['bare', 'bearer']);
});

test('no raw token travels on the bus or lands in the data directory: only its hash', async () => {
  if (testTransport() !== 'embedded') return; // on Kafka the log is the broker's; the schema forbids tokens
  const files = readdirSync(labld.dataDir, { recursive: true, withFileTypes: true }).filter((f) =>
    f.isFile(),
  );
  assert.ok(
    files.some((f) => f.parentPath.includes('bus')),
    'the embedded bus log is under the data directory',
  );
  for (const file of files) {
    const text = readFileSync(join(file.parentPath, file.name)).toString('latin1');
    assert.equal(text.includes(alice.token), false, `${file.name} holds alice's token`);
  }
});

test('an anonymous upload is refused before its file is stored', async () => {
  const form = new FormData();
  form.set('package_id', 'bare');
  form.set('upload', new Blob(['anonymous bytes 4f1c']), 'a.csv');
  const { status, body } = await api(labld.url, 'resource_create', { form });
  assert.equal(status, 403);
  assert.equal(body.error.__type, 'Authorization Error');
  const blobs = readdirSync(join(labld.dataDir, 'blobs'), { recursive: true, withFileTypes: true });
  for (const file of blobs.filter((f) => f.isFile())) {
    assert.equal(
      readFileSync(join(file.parentPath, file.name), 'utf8').includes('anonymous bytes 4f1c'),
      false,
    );
  }
});
