// The query page under a small result limit (LABLD_SPARQL_MAX_RESULTS=2): a builder part that
// is past it is told on the page, and the other parts still show — the page is not an error.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { loadAndWait, uploadTurtle } from '../triplestore/endpoint-support.ts';
import { api, person } from './actions/support.ts';

const EX = 'http://example.org/';
let labld: Running & { dataDir: string };
let previous: string | undefined;

before(async () => {
  previous = process.env['LABLD_SPARQL_MAX_RESULTS'];
  process.env['LABLD_SPARQL_MAX_RESULTS'] = '2';
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  const owner = await person(store, 'owner');
  await store.close();
  const made = await api(labld.url, 'package_create', {
    body: { name: 'many' },
    headers: { authorization: owner.token },
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  const ttl = [1, 2, 3].map((i) => `<${EX}m${i}> a <${EX}Measurement> ; <${EX}force> ${i}.5 .`).join('\n');
  await uploadTurtle(labld.url, owner, 'many', 'many-joined.ttl', ttl);
  await loadAndWait(labld.url, owner, 'many');
});
after(async () => {
  await labld?.stop();
  if (previous === undefined) delete process.env['LABLD_SPARQL_MAX_RESULTS'];
  else process.env['LABLD_SPARQL_MAX_RESULTS'] = previous;
});

test('three rows past a limit of two: the page tells so and still offers the classes and properties', async () => {
  const params = new URLSearchParams({ class: `${EX}Measurement` });
  const answer = await fetch(`${labld.url}/dataset/many/query?${params}`, {
    headers: { accept: 'text/html' },
  });
  assert.equal(answer.status, 200);
  const html = await answer.text();
  assert.match(html, /<p class="error" role="alert">[^<]*more than 2[^<]*<\/p>/);
  assert.doesNotMatch(html, /id="results-count"/);
  assert.match(html, />Measurement<\/a> <span class="count">3<\/span>/);
  assert.match(html, />force<\/a> <span class="count">3<\/span>/);
});
