// The query page on a whole labld: who may see it and press its Load button (as the catalogue:
// a private dataset is missing to anonymous and outsiders, Load is for editors), "not loaded
// yet" before a load, and after it the builder's server-rendered answer to a sentence given in
// the address, checked against a hand-written SPARQL query on the endpoint.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seedPeople } from './support/people.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { sparql, uploadTurtle } from '../triplestore/endpoint-support.ts';
import { api, type Person } from './actions/support.ts';
import { csrfOf, getPage, jarsOf, postForm, type CookieJar } from './support/login.ts';

const PASSWORD = 'the query page has long passwords';
const WHO = ['anonymous', 'reader', 'editor', 'other'] as const;
type Who = (typeof WHO)[number];
type Visibility = 'public' | 'private';
const EX = 'http://example.org/';
const TTL = `@prefix ex: <${EX}> .
ex:m1 a ex:Measurement ; ex:force 1.5 ; ex:unit "kN" .
ex:m2 a ex:Measurement ; ex:force 2.5 ; ex:unit "kN" .
ex:m3 a ex:Measurement ; ex:force 3.5 ; ex:unit "N" .
ex:s1 a ex:Specimen ; ex:width 10 .
`;

let labld: Running & { dataDir: string };
let owner: Person;
let people = new Map<string, Person>();
let jars = new Map<Who, CookieJar>();

const readStatus = (who: Who, v: Visibility) =>
  v === 'private' && (who === 'anonymous' || who === 'other') ? 404 : 200;
function loadStatus(who: Who, v: Visibility): number {
  if (who === 'editor') return 303;
  if (who === 'anonymous') return 401;
  return who === 'other' && v === 'private' ? 404 : 403;
}

before(async () => {
  labld = await startLabld();
  people = await seedPeople(labld.dataDir, WHO, PASSWORD);
  owner = people.get('owner')!;
  for (const v of ['public', 'private'] as const) {
    const made = await api(labld.url, 'package_create', {
      body: { name: `${v}-q`, title: `The ${v} one`, private: v === 'private' },
      headers: { authorization: owner.token },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    for (const [who, capacity] of [
      ['reader', 'member'],
      ['editor', 'editor'],
    ] as const) {
      const added = await api(labld.url, 'package_collaborator_create', {
        body: { id: `${v}-q`, user_id: who, capacity },
        headers: { authorization: owner.token },
      });
      assert.equal(added.status, 200, JSON.stringify(added.body));
    }
    await uploadTurtle(labld.url, owner, `${v}-q`, 'forces-joined.ttl', TTL);
  }
  jars = await jarsOf(labld.url, WHO, PASSWORD);
});
after(() => labld?.stop());

const page = (who: Who, path: string) => getPage(`${labld.url}${path}`, jars.get(who)!);

describe('the query page before a load', () => {
  for (const v of ['public', 'private'] as const) {
    for (const who of WHO) {
      test(`${who} × ${v}: the page as the dataset page, "not loaded yet", Load for editors`, async () => {
        const expected = readStatus(who, v);
        const dataset = await page(who, `/dataset/${v}-q`);
        const query = await page(who, `/dataset/${v}-q/query`);
        assert.equal(dataset.status, expected);
        assert.equal(query.status, expected);
        if (expected !== 200) {
          assert.doesNotMatch(query.html, /The private one/);
          return;
        }
        assert.match(dataset.html, new RegExp(`href="/dataset/${v}-q/query">Query</a>`));
        assert.match(query.html, /<h2 id="not-loaded-heading">Not loaded yet<\/h2>/);
        assert.doesNotMatch(query.html, /id="builder"/);
        const loadForm = `action="/dataset/${v}-q/query/load"`;
        assert.equal(query.html.includes(loadForm), who === 'editor', 'the Load button');
        // The endpoint says the same: nothing, not an error.
        const empty = await sparql(
          labld.url,
          `${v}-q`,
          'SELECT * WHERE { ?s ?p ?o }',
          who === 'anonymous' ? {} : { who: owner },
        );
        assert.equal(JSON.parse(empty.text).results.bindings.length, 0);
      });
    }
  }
});

describe('the Load button', () => {
  for (const v of ['public', 'private'] as const) {
    for (const who of WHO.filter((w) => w !== 'editor')) {
      test(`${who} × ${v}: refused`, async () => {
        const jar = jars.get(who)!;
        const csrf = csrfOf((await getPage(`${labld.url}/user/login`, jar)).html);
        const posted = await postForm(`${labld.url}/dataset/${v}-q/query/load`, jar, { _csrf: csrf });
        assert.equal(posted.status, loadStatus(who, v));
      });
    }
  }

  test('an editor loads the public dataset; the page then builds sentences on it', async () => {
    const jar = jars.get('editor')!;
    const form = await page('editor', '/dataset/public-q/query');
    const posted = await postForm(`${labld.url}/dataset/public-q/query/load`, jar, {
      _csrf: csrfOf(form.html),
    });
    assert.equal(posted.status, 303);
    assert.equal(posted.headers.get('location'), '/dataset/public-q/query?loading=1');
    const told = await page('editor', '/dataset/public-q/query?loading=1');
    assert.match(told.html, /Load requested|id="builder"/);
    const end = Date.now() + 15_000;
    let html = '';
    while (Date.now() < end) {
      html = (await page('anonymous', '/dataset/public-q/query')).html;
      if (html.includes('id="builder"')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(html, /id="builder"/);
    assert.doesNotMatch(html, /Not loaded yet/);
    assert.match(html, />Measurement<\/a> <span class="count">3<\/span>/);
    assert.match(html, />Specimen<\/a> <span class="count">1<\/span>/);
    // The empty sentence has no results yet (it used to show "1 row" of one "—").
    assert.doesNotMatch(html, /<table class="data"/);
    assert.doesNotMatch(html, /\d+ rows?</);
    assert.match(html, /Pick a class or a property to see results/);

    // "Every Measurement whose unit is kN and whose force is greater than 2", from the address.
    const params = new URLSearchParams({
      class: `${EX}Measurement`,
      p1: `${EX}unit`,
      f1: 'is',
      v1: '"kN"',
      p2: `${EX}force`,
      f2: 'gt',
      v2: '2',
    });
    const built = await page('anonymous', `/dataset/public-q/query?${params}`);
    assert.equal(built.status, 200);
    assert.match(built.html, /Every Measurement whose unit is “kN” and whose force is greater than 2/);
    const byHand = await sparql(
      labld.url,
      'public-q',
      `SELECT ?m WHERE { ?m a <${EX}Measurement> ; <${EX}unit> "kN" ; <${EX}force> ?f . FILTER(?f > 2) }`,
    );
    const expected = JSON.parse(byHand.text).results.bindings.length;
    assert.equal(expected, 1);
    assert.match(built.html, new RegExp(`<p class="count" id="results-count">${expected} row</p>`));
    assert.match(built.html, /<td>m2<\/td><td>“kN”<\/td><td>2.5<\/td>/);
    // The private dataset stays unloaded and hidden.
    assert.equal((await page('anonymous', '/dataset/private-q/query')).status, 404);
  });

  test('parameters that make no sentence answer 422 naming the parameter', async () => {
    const bad = await page(
      'anonymous',
      `/dataset/public-q/query?p1=${encodeURIComponent(`${EX}force`)}&f1=gt&v1=lots`,
    );
    assert.equal(bad.status, 422);
    assert.match(bad.html, /v1: must be a number/);
  });
});
