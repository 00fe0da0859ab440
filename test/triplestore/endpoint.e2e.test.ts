// The dataset's SPARQL endpoint on a whole labld (gateway → triplestore-requests → the triple
// store; triplestore_load → load-triplestore): a Turtle resource loaded by the load button, then
// queried by GET and POST in each result type (parsed back), updated by an editor, refused to a
// reader and to anonymous; deleting the resource drops its graph; a dataset never loaded
// answers the empty result.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createSession } from '../../lib/catalogue/auth/sessions.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { parse } from '../../lib/rdf/index.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { api, person, type Person } from '../catalogue/actions/support.ts';
import { endpoint, loadAndWait, sparql, storedGraphs, uploadTurtle, SAMPLE_TTL } from './endpoint-support.ts';

let labld: Running & { dataDir: string };
let alice: Person; // owner of both datasets
let rita: Person; // reader of `measured`
let ed: Person; // editor of `measured`
let graph: string;
let edCookie: string; // ed's browser session
let resourceId: string;

const auth = (who: Person) => ({ authorization: who.token });
const SELECT = 'SELECT ?s ?force WHERE { ?s <http://example.org/force> ?force } ORDER BY ?force';

before(async () => {
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  alice = await person(store, 'alice');
  rita = await person(store, 'rita');
  ed = await person(store, 'ed');
  const session = createSession();
  await store.createSession({
    user_id: ed.user.id,
    session_hash: session.hash,
    expires: session.expiresAt.toISOString(),
  });
  edCookie = `labld_session=${session.id}`;
  await store.close();
  for (const name of ['measured', 'untouched']) {
    const made = await api(labld.url, 'package_create', { body: { name }, headers: auth(alice) });
    assert.equal(made.status, 200);
  }
  for (const [who, role] of [
    [rita, 'member'],
    [ed, 'editor'],
  ] as const) {
    const added = await api(labld.url, 'package_collaborator_create', {
      body: { id: 'measured', user_id: who.user.name, capacity: role },
      headers: auth(alice),
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
  }
  const resource = await uploadTurtle(labld.url, alice, 'measured', 'forces-joined.ttl', SAMPLE_TTL);
  const loaded = await loadAndWait(labld.url, alice, 'measured');
  assert.match(loaded.url, new RegExp(`/dataset/${loaded.package_id}/triplestore/sparql$`));
  // The graph's name is the resource's download URL (the original's IRI scheme).
  graph = resource.url;
  resourceId = resource.id;
  assert.match(
    graph,
    new RegExp(`/dataset/${loaded.package_id}/resource/${resource.id}/download/forces-joined.ttl$`),
  );
});
after(() => labld?.stop());

test('the load registered the SPARQL resource, once, and loaded one named graph per resource', async () => {
  await loadAndWait(labld.url, alice, 'measured');
  const shown = await api(labld.url, 'package_show', { query: { id: 'measured' } });
  const endpoints = shown.body.result.resources.filter((r: { name: string }) => r.name === 'SPARQL');
  assert.equal(endpoints.length, 1);
  assert.equal(endpoints[0].format, 'SPARQL');
  const answer = await sparql(labld.url, 'measured', 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }');
  assert.equal(answer.status, 200);
  const json = JSON.parse(answer.text);
  assert.deepEqual(
    json.results.bindings.map((b: { g: { value: string } }) => b.g.value),
    [graph],
  );
});

test('GET in each result type, parsed back', async () => {
  const json = await sparql(labld.url, 'measured', SELECT, { accept: 'application/sparql-results+json' });
  assert.equal(json.status, 200);
  assert.match(json.type, /^application\/sparql-results\+json/);
  const parsed = JSON.parse(json.text);
  assert.deepEqual(parsed.head.vars, ['s', 'force']);
  assert.deepEqual(
    parsed.results.bindings.map((b: { force: { value: string } }) => b.force.value),
    ['1.5', '2.5'],
  );

  const xml = await sparql(labld.url, 'measured', SELECT, { accept: 'application/sparql-results+xml' });
  assert.match(xml.type, /^application\/sparql-results\+xml/);
  assert.deepEqual(
    [...xml.text.matchAll(/<binding name="force"><literal datatype="([^"]+)">([^<]+)<\/literal>/g)].map(
      (m) => [m[1], m[2]],
    ),
    [
      ['http://www.w3.org/2001/XMLSchema#decimal', '1.5'],
      ['http://www.w3.org/2001/XMLSchema#decimal', '2.5'],
    ],
  );

  const csv = await sparql(labld.url, 'measured', SELECT, { accept: 'text/csv' });
  assert.match(csv.type, /^text\/csv/);
  assert.deepEqual(csv.text.split('\r\n'), [
    's,force',
    'http://example.org/m1,1.5',
    'http://example.org/m2,2.5',
    '',
  ]);

  const tsv = await sparql(labld.url, 'measured', SELECT, { accept: 'text/tab-separated-values' });
  assert.deepEqual(tsv.text.split('\n'), [
    '?s\t?force',
    '<http://example.org/m1>\t"1.5"^^<http://www.w3.org/2001/XMLSchema#decimal>',
    '<http://example.org/m2>\t"2.5"^^<http://www.w3.org/2001/XMLSchema#decimal>',
    '',
  ]);

  const ask = await sparql(labld.url, 'measured', 'ASK { ?s <http://example.org/force> 2.5 }');
  assert.deepEqual(JSON.parse(ask.text), { head: {}, boolean: true });
});

test('CONSTRUCT as Turtle, N-Triples and JSON-LD, each parsed back to the same four triples', async () => {
  const construct = 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }';
  for (const [accept, format] of [
    ['text/turtle', 'turtle'],
    ['application/n-triples', 'nt'],
    ['application/ld+json', 'json-ld'],
  ] as const) {
    const answer = await sparql(labld.url, 'measured', construct, { accept });
    assert.equal(answer.status, 200, accept);
    assert.match(answer.type, new RegExp(`^${accept.replace('+', '\\+')}`));
    const quads = await parse(answer.text, format);
    assert.equal(quads.length, 4, accept);
    assert.ok(quads.some((q) => q.object.value === '2.5'));
  }
});

test('POST as a form and as application/sparql-query', async () => {
  const form = await sparql(labld.url, 'measured', SELECT, { method: 'form' });
  assert.equal(form.status, 200);
  assert.equal(JSON.parse(form.text).results.bindings.length, 2);
  const direct = await sparql(labld.url, 'measured', SELECT, { method: 'sparql-query' });
  assert.equal(direct.status, 200);
  assert.equal(JSON.parse(direct.text).results.bindings.length, 2);
});

test('an editor updates (form and sparql-update); a reader is forbidden, anonymous must log in', async () => {
  const insert = (v: string) =>
    `INSERT DATA { GRAPH <${graph}> { <http://example.org/m3> <http://example.org/force> ${v} } }`;
  const byForm = await sparql(labld.url, 'measured', insert('3.5'), { method: 'form-update', who: ed });
  assert.equal(byForm.status, 204, byForm.text);
  const direct = await sparql(labld.url, 'measured', insert('4.5'), { method: 'sparql-update', who: ed });
  assert.equal(direct.status, 204, direct.text);
  const read = await sparql(labld.url, 'measured', SELECT, { who: rita });
  assert.deepEqual(
    JSON.parse(read.text).results.bindings.map((b: { force: { value: string } }) => b.force.value),
    ['1.5', '2.5', '3.5', '4.5'],
  );
  const reader = await sparql(labld.url, 'measured', insert('9'), { method: 'sparql-update', who: rita });
  assert.equal(reader.status, 403);
  assert.match(JSON.parse(reader.text).detail, /sparql\.update: not allowed/);
  const anonymous = await sparql(labld.url, 'measured', insert('9'), { method: 'sparql-update' });
  assert.equal(anonymous.status, 401);
  const viaGet = await fetch(`${endpoint(labld.url, 'measured')}?update=${encodeURIComponent(insert('9'))}`);
  assert.equal(viaGet.status, 400);
  assert.match(
    ((await viaGet.json()) as { detail: string }).detail,
    /^update: an update must be sent with POST/,
  );
});

test("a browser session counts for GET, and for POST only from labld's own pages (no cross-site update)", async () => {
  const at = endpoint(labld.url, 'measured');
  const insert = `INSERT DATA { GRAPH <${graph}> { <http://example.org/m9> <http://example.org/note> "by cookie" } }`;
  const post = (site: string | undefined) =>
    fetch(at, {
      method: 'POST',
      headers: {
        cookie: edCookie,
        'content-type': 'application/sparql-update',
        ...(site ? { 'sec-fetch-site': site } : {}),
      },
      body: insert,
    });
  // Cross-site (or a client that says nothing): the cookie is not read, so the caller is anonymous.
  assert.equal((await post('cross-site')).status, 401);
  assert.equal((await post(undefined)).status, 401);
  assert.equal((await post('same-origin')).status, 204);
  const ask = await fetch(
    `${at}?query=${encodeURIComponent('ASK { ?s <http://example.org/note> "by cookie" }')}`,
    {
      headers: { cookie: edCookie },
    },
  );
  assert.deepEqual(await ask.json(), { head: {}, boolean: true });
});

test('a dataset never loaded answers the empty result; a missing one is 404 (401 to anonymous)', async () => {
  const empty = await sparql(labld.url, 'untouched', SELECT);
  assert.equal(empty.status, 200);
  assert.deepEqual(JSON.parse(empty.text), { head: { vars: ['s', 'force'] }, results: { bindings: [] } });
  const missing = await sparql(labld.url, 'no-such-dataset', SELECT, { who: rita });
  assert.equal(missing.status, 404);
  assert.equal(JSON.parse(missing.text).detail, 'id: dataset not found: no-such-dataset');
  // Anonymous: told to send credentials, as for a private dataset (protocol.e2e.test.ts).
  assert.equal((await sparql(labld.url, 'no-such-dataset', SELECT)).status, 401);
});

test('bad requests are clear 4xx answers naming the field', async () => {
  const cases: [string, RequestInit, number, RegExp][] = [
    [
      '',
      { method: 'POST', body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      400,
      /^query: missing/,
    ],
    ['?query=SELEC', {}, 400, /^query: not valid SPARQL/],
    ['?query=a&query=b', {}, 400, /^query: given more than once/],
    [
      `?query=${encodeURIComponent(SELECT)}&default-graph-uri=x`,
      {},
      400,
      /^default-graph-uri: not supported/,
    ],
    ['', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } }, 415, /^body: expected/],
    [
      `?query=${encodeURIComponent('SELECT * WHERE { SERVICE <http://evil.example/> { ?s ?p ?o } }')}`,
      {},
      403,
      /SERVICE is not allowed/,
    ],
    [
      '',
      {
        method: 'POST',
        body: `SELECT * WHERE { ?s ?p ?o } # ${'x'.repeat(100_001)}`,
        headers: { 'content-type': 'application/sparql-query' },
      },
      413,
      /^query: longer than 100000 characters/,
    ],
  ];
  for (const [query, init, status, detail] of cases) {
    const answer = await fetch(`${endpoint(labld.url, 'measured')}${query}`, init);
    assert.equal(answer.status, status, query.slice(0, 80));
    assert.match(((await answer.json()) as { detail: string }).detail, detail);
  }
});

test('nothing of the client reaches the answer: our own headers only', async () => {
  const answer = await fetch(`${endpoint(labld.url, 'measured')}?query=${encodeURIComponent(SELECT)}`, {
    headers: { 'x-forward-me': 'secret', cookie: 'other=1' },
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.ok(![...answer.headers.keys()].some((h) => h.startsWith('x-forward') || h === 'set-cookie'));
});

test('replacing a loaded resource replaces its graph (the original went stale)', async () => {
  const form = new FormData();
  form.set('id', resourceId);
  form.set(
    'upload',
    new Blob(['<http://example.org/m7> <http://example.org/force> 7.5 .\n'], { type: 'text/turtle' }),
    'forces-joined.ttl',
  );
  const replaced = await api(labld.url, 'resource_update', { form, headers: auth(alice) });
  assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
  await waitUntil(async () => {
    const read = JSON.parse((await sparql(labld.url, 'measured', SELECT)).text);
    return (
      JSON.stringify(read.results.bindings.map((b: { force: { value: string } }) => b.force.value)) ===
      '["7.5"]'
    );
  });
});

test('deleting the resource drops its graph; deleting the dataset drops the rest', async () => {
  const extra = await uploadTurtle(labld.url, alice, 'measured', 'more-joined.ttl', SAMPLE_TTL);
  await loadAndWait(labld.url, alice, 'measured');
  const graphs = async () =>
    JSON.parse(
      (await sparql(labld.url, 'measured', 'SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }')).text,
    ).results.bindings.length as number;
  // The previous test's replacement started a sync load whose endpoint update can land after
  // loadAndWait read the endpoint's time, so the new graph is awaited rather than assumed.
  await waitUntil(async () => (await graphs()) === 2);
  const deleted = await api(labld.url, 'resource_delete', { body: { id: extra.id }, headers: auth(alice) });
  assert.equal(deleted.status, 200);
  await waitUntil(async () => (await graphs()) === 1);
  const id = (await api(labld.url, 'package_show', { query: { id: 'measured' } })).body.result.id as string;
  const gone = await api(labld.url, 'package_delete', { body: { id: 'measured' }, headers: auth(alice) });
  assert.equal(gone.status, 200);
  await waitUntil(async () => (await storedGraphs(labld.dataDir, id)).length === 0);
  assert.equal((await sparql(labld.url, 'measured', SELECT, { who: alice })).status, 404);
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting for the triple store');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
