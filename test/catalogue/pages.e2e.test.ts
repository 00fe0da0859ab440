// The catalogue's pages on a whole labld (pages → catalogue topic → consumer → actions → stores):
// a user logs in through the form, makes a dataset, uploads a file, sees who made it and
// downloads the same bytes, makes and revokes an API token; visitors see public datasets only;
// the table preview sorts numerically and filters on the datastore.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../lib/catalogue/auth/passwords.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { api, importedTable } from './actions/support.ts';
import { CookieJar, csrfOf, getPage, logIn, postForm } from './support/login.ts';

const PASSWORD = 'pages need a long password';
let labld: Running & { dataDir: string };

before(async () => {
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  await store.createUser({ name: 'ada', password_hash: await hashPassword(PASSWORD) });
  await store.createUser({ name: 'bob', password_hash: await hashPassword(PASSWORD) });
  await store.close();
});
after(() => labld?.stop());

const url = (path: string) => `${labld.url}${path}`;

async function signedIn(name: string): Promise<CookieJar> {
  const { response, jar } = await logIn(labld.url, name, PASSWORD);
  assert.equal(response.status, 303, `${name} logs in`);
  return jar;
}

/** Posts the new-dataset form as `jar`'s user; the answer (303 to the dataset on success). */
async function newDataset(jar: CookieJar, fields: Record<string, string>): Promise<Response> {
  const form = await getPage(url('/dataset/new'), jar);
  assert.equal(form.status, 200);
  return postForm(url('/dataset/new'), jar, { _csrf: csrfOf(form.html), ...fields });
}

async function upload(jar: CookieJar, dataset: string, name: string, text: string): Promise<Response> {
  const form = await getPage(url(`/dataset/${dataset}/upload`), jar);
  const body = new FormData();
  body.set('_csrf', csrfOf(form.html));
  body.set('description', 'first run');
  body.set('file', new Blob([text], { type: 'text/csv' }), name);
  return fetch(url(`/dataset/${dataset}/upload`), {
    method: 'POST',
    body,
    redirect: 'manual',
    headers: { cookie: jar.header(), origin: labld.url, accept: 'text/html' },
  });
}

const CSV = 'Probe,Kraft,Weg\nA1,12.5,0.31\nA2,13.25,0.42\nA10,100.5,1.2\nA3,9,0.28\n';

describe('a user makes a dataset and uploads a file through the pages', () => {
  let resourcePath = '';

  test('the new-dataset form makes the dataset and leads to its page', async () => {
    const jar = await signedIn('ada');
    const made = await newDataset(jar, {
      name: 'tensile-2026',
      title: 'Tensile tests 2026',
      notes: 'Probes of the November campaign',
    });
    assert.equal(made.status, 303);
    assert.equal(made.headers.get('location'), '/dataset/tensile-2026');
    const page = await getPage(url('/dataset/tensile-2026'), jar);
    assert.match(page.html, /<h1>Tensile tests 2026<\/h1>/);
    assert.match(page.html, /Add a resource/, 'its creator may upload');
  });

  test('the upload becomes a resource made by its uploader; the download gives the same bytes', async () => {
    const jar = await signedIn('ada');
    const answer = await upload(jar, 'tensile-2026', 'probe.csv', CSV);
    assert.equal(answer.status, 303);
    resourcePath = answer.headers.get('location') ?? '';
    assert.match(resourcePath, /^\/dataset\/tensile-2026\/resource\/[0-9a-f-]{36}$/);
    const page = await getPage(url('/dataset/tensile-2026'), jar);
    assert.match(page.html, />probe\.csv<\/a>/);
    assert.match(page.html, /uploaded by ada/);
    const download = await fetch(url(`${resourcePath}/download`));
    assert.equal(download.status, 200);
    assert.equal(await download.text(), CSV);
  });

  test('a taken or invalid name gives the form again with the reason and what was typed', async () => {
    const jar = await signedIn('ada');
    const taken = await newDataset(jar, { name: 'tensile-2026', title: 'Again' });
    assert.equal(taken.status, 409);
    const html = await taken.text();
    assert.match(html, /role="alert"/);
    assert.match(html, /value="Again"/);
    const invalid = await newDataset(jar, { name: 'Not A Name!', title: 'Bad' });
    assert.equal(invalid.status, 422);
    assert.match(await invalid.text(), /lowercase/);
  });

  test('a visitor is asked to log in to make a dataset or upload, and nothing is made', async () => {
    const visitor = await fetch(url('/dataset/new'), { headers: { accept: 'text/html' } });
    assert.equal(visitor.status, 401);
    const jar = new CookieJar();
    const page = await getPage(url('/user/login'), jar);
    const post = await postForm(url('/dataset/new'), jar, { _csrf: csrfOf(page.html), name: 'by-nobody' });
    assert.equal(post.status, 401);
    assert.equal((await api(labld.url, 'package_show', { query: { id: 'by-nobody' } })).status, 404);
  });

  test('another user may read the public dataset but not upload to it', async () => {
    const jar = await signedIn('bob');
    const page = await getPage(url('/dataset/tensile-2026'), jar);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.html, /Add a resource/);
    const answer = await upload(jar, 'tensile-2026', 'intruder.csv', 'a\n1\n');
    assert.equal(answer.status, 403);
  });
});

describe('private datasets on the pages', () => {
  test('only members see it: visitors and other users get not found, in the list and by name', async () => {
    const ada = await signedIn('ada');
    const made = await newDataset(ada, { name: 'secret-runs', title: 'Secret runs', private: 'on' });
    assert.equal(made.status, 303);
    assert.match((await getPage(url('/dataset'), ada)).html, /Secret runs/);
    const bob = await signedIn('bob');
    assert.doesNotMatch((await getPage(url('/dataset'), bob)).html, /Secret runs/);
    assert.equal((await getPage(url('/dataset/secret-runs'), bob)).status, 404);
    assert.equal((await getPage(url('/dataset/secret-runs'), new CookieJar())).status, 404);
  });
});

describe('the table preview on the datastore', () => {
  test('the chain imports the uploaded CSV; the preview sorts it numerically and filters it', async () => {
    const jar = await signedIn('ada');
    const pkg = await api(labld.url, 'package_show', { query: { id: 'tensile-2026' } });
    const resourceId = (pkg.body.result.resources as { id: string; name: string }[]).find(
      (r) => r.name === 'probe.csv',
    )!.id;
    // The automation chain's import step fills the table after the upload (typed by the descriptor).
    const table = await importedTable(labld.url, resourceId);
    assert.equal(table.total, 4);
    const base = `/dataset/tensile-2026/resource/${resourceId}`;
    const sorted = await getPage(url(`${base}?sort=Kraft&order=desc`), jar);
    assert.equal(sorted.status, 200);
    const probes = [...sorted.html.matchAll(/<td>(A\d+)<\/td>/g)].map((m) => m[1]);
    assert.deepEqual(probes, ['A10', 'A2', 'A1', 'A3'], 'numeric order, not text order');
    const filtered = await getPage(url(`${base}?f.Probe=A1`), jar);
    assert.deepEqual([...filtered.html.matchAll(/<td>(A\d+)<\/td>/g)].map((m) => m[1]).sort(), ['A1', 'A10']);
    const unknown = await getPage(url(`${base}?sort=nothing`), jar);
    assert.equal(unknown.status, 422);
    assert.match(
      unknown.html,
      /sort: no column &quot;nothing&quot;/,
      'names the page parameter and the column',
    );
    // A number column is matched by value; words in it are refused naming the page's parameter.
    const exact = await getPage(url(`${base}?f.Kraft=9`), jar);
    assert.deepEqual(
      [...exact.html.matchAll(/<td>(A\d+)<\/td>/g)].map((m) => m[1]),
      ['A3'],
    );
    const words = await getPage(url(`${base}?f.Kraft=heavy`), jar);
    assert.equal(words.status, 422);
    assert.match(words.html, /f\.Kraft: column &quot;Kraft&quot; holds numbers/);
    const missing = await getPage(url(`${base}?f.Mass=1`), jar);
    assert.equal(missing.status, 422);
    assert.match(missing.html, /f\.Mass: no column &quot;Mass&quot;/);
  });
});

describe('API tokens on the pages', () => {
  test('a token made on the page is shown once, works for the API, and is revoked from the page', async () => {
    const jar = await signedIn('bob');
    const form = await getPage(url('/user/tokens'), jar);
    const made = await postForm(url('/user/tokens'), jar, { _csrf: csrfOf(form.html), name: 'nightly' });
    assert.equal(made.status, 201);
    const token = /id="new-token"[^>]*value="([^"]+)"/.exec(await made.text())?.[1] ?? '';
    assert.match(token, /^labld_/);
    const list = await getPage(url('/user/tokens'), jar);
    assert.match(list.html, /nightly/);
    assert.doesNotMatch(list.html, new RegExp(token), 'never shown again');
    const use = await api(labld.url, 'package_create', {
      body: { name: 'by-token' },
      headers: { authorization: token },
    });
    assert.equal(use.status, 200);
    const revoke = /action="(\/user\/tokens\/[^"]+\/revoke)"/.exec(list.html)?.[1] ?? '';
    const revoked = await postForm(url(revoke), jar, { _csrf: csrfOf(list.html) });
    assert.equal(revoked.status, 303);
    const after = await api(labld.url, 'package_create', {
      body: { name: 'too-late' },
      headers: { authorization: token },
    });
    assert.equal(after.status, 403);
  });

  test('a form post without its CSRF token changes nothing', async () => {
    const jar = await signedIn('bob');
    const post = await postForm(url('/user/tokens'), jar, { name: 'forged' });
    assert.equal(post.status, 403);
    assert.doesNotMatch((await getPage(url('/user/tokens'), jar)).html, /forged/);
  });
});
