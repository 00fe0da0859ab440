// The Action API as CKAN's HTTP clients reach it (issue 26): the API roots answer the version,
// a form-encoded POST is read as CKAN reads one (a repeated field is a list; a lone field with
// no value is JSON, as `curl -d '{…}'` sends it), api_token_revoke takes the token itself, and an
// upload whose part declares no type gets the type of its file name, which its download is sent with.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../../support/labld.ts';
import { api, person, type Person } from './support.ts';

let labld: Running & { dataDir: string };
let alice: Person;
let spare: Person;
let root: Person;

before(async () => {
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  alice = await person(store, 'alice');
  spare = await person(store, 'spare');
  root = await person(store, 'root', true);
  await store.close();
});
after(() => labld?.stop());

function form(action: string, body: string, token = alice.token) {
  return fetch(`${labld.url}/api/3/action/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: token },
    body,
  });
}

describe('CKAN over HTTP', () => {
  it('/api/3 and /api answer {"version": 3}', async () => {
    for (const path of ['/api/3', '/api']) {
      const response = await fetch(`${labld.url}${path}`);
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), { version: 3 }, path);
    }
  });

  it('a form-encoded action POST is read as CKAN reads it', async () => {
    const made = await form('package_create', 'name=formed&title=From+a+form&tags=');
    assert.equal(made.status, 200, await made.clone().text());
    const body = (await made.json()) as { result: { name: string; title: string } };
    assert.deepEqual([body.result.name, body.result.title], ['formed', 'From a form']);
    // A repeated field is a list (fq_list).
    const search = await form('package_search', 'fq_list=name:formed&fq_list=title:form');
    assert.equal(search.status, 200, await search.clone().text());
    assert.equal(((await search.json()) as { result: { count: number } }).result.count, 1);
    // The whole JSON as the one field's name (curl -d without a Content-Type).
    const curl = await form('package_patch', JSON.stringify({ id: 'formed', notes: 'curl sent this' }));
    assert.equal(curl.status, 200, await curl.clone().text());
    assert.equal(((await curl.json()) as { result: { notes: string } }).result.notes, 'curl sent this');
    const broken = await form('package_patch', '{"id": "formed",');
    assert.equal(broken.status, 400);
  });

  it('api_token_revoke takes the token itself', async () => {
    const made = await api(labld.url, 'api_token_create', {
      body: { user: 'spare', name: 'script' },
      headers: { authorization: spare.token },
    });
    const token = made.body.result.token as string;
    assert.equal((await api(labld.url, 'status_show', { headers: { authorization: token } })).status, 200);
    const revoked = await api(labld.url, 'api_token_revoke', {
      body: { token },
      headers: { authorization: spare.token },
    });
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
    assert.equal((await api(labld.url, 'status_show', { headers: { authorization: token } })).status, 403);
    // Another's token, by the token, is refused as by its id.
    const other = await api(labld.url, 'api_token_revoke', {
      body: { token: spare.token },
      headers: { authorization: alice.token },
    });
    assert.equal(other.status, 403);
    assert.equal(
      (await api(labld.url, 'status_show', { headers: { authorization: spare.token } })).status,
      200,
    );
  });

  it("an upload declared as octet-stream (ckanapi's) gets its file name's type, and is downloaded with it", async () => {
    const dataset = await api(labld.url, 'package_create', {
      body: { name: 'typed' },
      headers: { authorization: alice.token },
    });
    assert.equal(dataset.status, 200);
    const upload = new FormData();
    upload.set('package_id', 'typed');
    upload.set('upload', new Blob(['a,b\n1,2\n'], { type: 'application/octet-stream' }), 'rows.csv');
    const made = await api(labld.url, 'resource_create', {
      form: upload,
      headers: { authorization: alice.token },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body.error));
    assert.equal(made.body.result.mimetype, 'text/csv');
    const download = await fetch(made.body.result.url as string);
    assert.equal(download.status, 200);
    assert.match(download.headers.get('content-type') ?? '', /^text\/csv/);
    const unknown = new FormData();
    unknown.set('package_id', 'typed');
    unknown.set('upload', new Blob(['x']), 'blob.weird');
    const odd = await api(labld.url, 'resource_create', {
      form: unknown,
      headers: { authorization: alice.token },
    });
    assert.equal(odd.body.result.mimetype, null);
  });

  it('the dataset list and page name the organization that owns a dataset', async () => {
    const org = await api(labld.url, 'organization_create', {
      body: { name: 'lab', title: 'Tensile <Lab>' },
      headers: { authorization: root.token },
    });
    assert.equal(org.status, 200, JSON.stringify(org.body.error));
    const made = await api(labld.url, 'package_create', {
      body: { name: 'owned', owner_org: 'lab' },
      headers: { authorization: root.token },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body.error));
    for (const path of ['/dataset/owned', '/dataset?q=owned']) {
      const page = await (await fetch(`${labld.url}${path}`)).text();
      assert.match(page, /Tensile &lt;Lab&gt;/, path);
    }
  });
});
