// IRIs labld mints resolve (issue 28, item 5): after the chain, a column of the CSV, the table
// group (the CSV's own URL) and the joined graph's template individuals (`…-joined.ttl#Specimen`,
// minted next to the descriptor) answer a browser with a page and a client with RDF by Accept,
// read from the stored graphs until the dataset is loaded, then from the triple store; a private
// dataset's IRIs are Not Found to a visitor, as a missing one.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Parser } from 'n3';
import { useChainE2e, type Dict } from './e2e.ts';
import { sleep } from '../support/wait.ts';

const e = useChainE2e();
const CSVW = 'http://www.w3.org/ns/csvw#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
let csvUrl = '';
let descriptorUrl = '';
let joinedId = '';

before(async () => {
  await e.ready;
  const id = await e.uploadSeed('minted');
  const steps = await e.settled(id);
  assert.ok(
    steps.some((s) => s.step === 'convert' && s.state === 'done'),
    JSON.stringify(steps),
  );
  const resources = (await e.call('package_show', { id: 'minted' })).resources as Dict[];
  const byName = (name: string) => resources.find((r) => r.name === name)!;
  csvUrl = byName('example.csv').url as string;
  descriptorUrl = byName('example-metadata.jsonld').url as string;
  joinedId = byName('example-joined.ttl').id as string;
});

/** The document the converter wrote the template individuals against: the joined file beside the descriptor. */
const joinedDocument = () => descriptorUrl.replace(/[^/]+$/, 'example-joined.ttl');
const column = () => `${csvUrl}/table-1-Standardkraft`;

async function get(url: string, accept: string, auth = false): Promise<Response> {
  return fetch(url, { headers: { accept, ...(auth ? e.auth() : {}) }, redirect: 'manual' });
}

function triples(turtle: string, base: string) {
  return new Parser({ baseIRI: base }).parse(turtle);
}

describe('IRIs minted under the base answer by Accept', () => {
  test('a column of the CSV: a page for a browser, from the stored graphs', async () => {
    const response = await get(column(), 'text/html,application/xhtml+xml,*/*;q=0.8');
    const html = await response.text();
    assert.equal(response.status, 200, html);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    // Named by the descriptor's own prefix `csv:` (the CSV's URL and a slash).
    assert.match(html, /<h1>csv:table-1-Standardkraft<\/h1>/);
    assert.match(
      html,
      /<p class="breadcrumb"><a href="\/dataset">Datasets<\/a> \/ <a href="\/dataset\/minted">minted<\/a> \/<\/p>/,
    );
    assert.match(html, /Described from the stored files example-metadata\.jsonld, example-joined\.ttl/);
    // Its type and what the mapping linked it to, in words.
    assert.match(html, /<p class="types"><a [^>]*>csvw:Column<\/a><\/p>/);
    assert.match(html, />ForceMeasurement<\/a>/);
  });

  test('the same column as Turtle and as JSON-LD', async () => {
    const turtle = await get(column(), 'text/turtle');
    assert.equal(turtle.status, 200);
    assert.match(turtle.headers.get('content-type') ?? '', /^text\/turtle/);
    const quads = triples(await turtle.text(), column());
    assert.ok(
      quads.some(
        (q) =>
          q.subject.value === column() &&
          q.predicate.value === RDF_TYPE &&
          q.object.value === `${CSVW}Column`,
      ),
    );
    const jsonld = await get(column(), 'application/ld+json');
    assert.equal(jsonld.status, 200);
    assert.match(jsonld.headers.get('content-type') ?? '', /^application\/ld\+json/);
    assert.ok(JSON.stringify(await jsonld.json()).includes('table-1-Standardkraft'));
  });

  test('the table group (the CSV URL): the file for a browser, its description for RDF', async () => {
    const file = await get(csvUrl, 'text/html,*/*;q=0.8');
    assert.equal(file.status, 200);
    assert.match(file.headers.get('content-disposition') ?? '', /^attachment/);
    const rdf = await get(csvUrl, 'text/turtle');
    assert.equal(rdf.status, 200);
    const quads = triples(await rdf.text(), csvUrl);
    assert.ok(quads.some((q) => q.subject.value === csvUrl && q.object.value === `${CSVW}TableGroup`));
  });

  test('a template individual: the browser lands on its row of the joined graph, a client gets the graph', async () => {
    const specimen = `${joinedDocument()}#Specimen`;
    const page = await get(joinedDocument(), 'text/html');
    assert.equal(page.status, 303);
    const location = page.headers.get('location') ?? '';
    assert.match(location, new RegExp(`/resource/${joinedId}\\?view=subjects$`));
    const html = await (await fetch(new URL(location, csvUrl))).text();
    assert.match(html, /<section class="subject" id="Specimen">\s*<h3>Specimen<\/h3>/);
    const rdf = await get(joinedDocument(), 'text/turtle');
    assert.equal(rdf.status, 200);
    const quads = triples(await rdf.text(), joinedDocument());
    assert.ok(
      quads.some(
        (q) =>
          q.subject.value === specimen && q.object.value === 'https://purl.matolab.org/mseo/mid/Specimen',
      ),
    );
    const jsonld = await get(joinedDocument(), 'application/ld+json');
    assert.equal(jsonld.status, 200);
    assert.match(jsonld.headers.get('content-type') ?? '', /^application\/ld\+json/);
    assert.ok(JSON.stringify(await jsonld.json()).includes(specimen));
  });

  test('an IRI nothing describes is Not Found', async () => {
    const response = await get(`${csvUrl}/no-such-thing`, 'text/turtle');
    assert.equal(response.status, 404);
    assert.match(((await response.json()) as { detail: string }).detail, /not described/);
  });
});

describe('a private dataset: its IRIs are Not Found to a visitor, as a missing one', () => {
  before(async () => {
    await e.call('package_patch', { id: 'minted', private: true });
  });

  for (const [what, url, accept] of [
    ['a column, as a page', column, 'text/html'],
    ['a column, as Turtle', column, 'text/turtle'],
    ['the joined document', joinedDocument, 'text/html'],
  ] as const) {
    test(what, async () => {
      const visitor = await get(url(), accept);
      assert.equal(visitor.status, 404);
      const missing = await get(url().replace(/\/dataset\/[^/]+\//, '/dataset/no-such-dataset/'), accept);
      assert.equal(missing.status, 404);
      const member = await get(url(), accept, true);
      assert.ok([200, 303].includes(member.status), `${member.status}`);
    });
  }

  test('once loaded, the description comes from the triple store', async () => {
    await e.call('triplestore_load', { id: 'minted' });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await e.call('labld_status_show', { id: 'minted' });
      if ((status.triplestore as Dict | null)?.state === 'done') break;
      assert.ok(Date.now() < deadline, JSON.stringify(status.triplestore));
      await sleep(200);
    }
    const html = await (await get(column(), 'text/html', true)).text();
    assert.match(html, /Described from the triple store/);
    assert.match(html, />ForceMeasurement<\/a>/);
  });
});
