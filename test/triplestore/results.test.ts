// Results in the type a client accepts (lib/triplestore/results.ts), against outputs written by
// hand from the W3C result formats: escaping in XML, CSV quoting, TSV term syntax, Accept's
// q-values and wildcards; and which resources a load takes (lib/chain/load.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Resource } from '../../lib/catalogue/model.ts';
import { parse } from '../../lib/rdf/index.ts';
import type { QueryResult } from '../../lib/triplestore/contract.ts';
import { loadableResources } from '../../lib/chain/load.ts';
import { acceptedTypes, renderResult } from '../../lib/triplestore/results.ts';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const BINDINGS = [
  {
    s: { type: 'uri', value: 'http://ex.org/a?x=1&y=2' },
    label: { type: 'literal', value: 'say "hi", <b>\tthen\nleave', 'xml:lang': 'en' },
    n: { type: 'literal', value: '2', datatype: `${XSD}integer` },
  },
  {
    s: { type: 'bnode', value: 'b0' },
    label: { type: 'literal', value: 'plain', datatype: `${XSD}string` },
  },
];
const VARIABLES = ['s', 'label', 'n'];
/** As a store hands it over: the SPARQL JSON document as text. */
const TABLE: QueryResult = {
  type: 'select',
  rows: BINDINGS.length,
  mediaType: 'application/sparql-results+json',
  text: JSON.stringify({ head: { vars: VARIABLES }, results: { bindings: BINDINGS } }),
};

test('Accept: order by q, then by place; q=0 is a refusal', () => {
  assert.deepEqual(acceptedTypes('text/csv;q=0.5, application/sparql-results+xml, text/tsv;q=0'), [
    'application/sparql-results+xml',
    'text/csv',
  ]);
  assert.deepEqual(acceptedTypes(undefined), []);
});

test('SPARQL JSON by default and for */*; 406 (not-acceptable) for types offered none of', async () => {
  for (const accept of [undefined, '', '*/*', 'text/html, */*;q=0.1']) {
    const out = await renderResult(TABLE, accept);
    assert.equal(out.contentType, 'application/sparql-results+json; charset=utf-8');
    assert.deepEqual(JSON.parse(out.body).head, { vars: ['s', 'label', 'n'] });
  }
  await assert.rejects(renderResult(TABLE, 'text/html'), { kind: 'not-acceptable', field: 'Accept' });
});

test('XML results escape what XML must, and keep language and datatype', async () => {
  const out = await renderResult(TABLE, 'application/sparql-results+xml');
  assert.ok(out.body.includes('<binding name="s"><uri>http://ex.org/a?x=1&amp;y=2</uri></binding>'));
  assert.ok(
    out.body.includes(
      '<binding name="label"><literal xml:lang="en">say &quot;hi&quot;, &lt;b&gt;\tthen\nleave</literal></binding>',
    ),
  );
  assert.ok(out.body.includes(`<literal datatype="${XSD}integer">2</literal>`));
  assert.ok(out.body.includes('<binding name="s"><bnode>b0</bnode></binding>'));
  const ask = await renderResult({ type: 'ask', boolean: false }, 'application/sparql-results+xml');
  assert.ok(ask.body.includes('<boolean>false</boolean>'));
});

test('CSV: plain values, RFC 4180 quotes, CRLF; an unbound cell is empty', async () => {
  const out = await renderResult(TABLE, 'text/csv');
  assert.equal(
    out.body,
    's,label,n\r\nhttp://ex.org/a?x=1&y=2,"say ""hi"", <b>\tthen\nleave",2\r\n_:b0,plain,\r\n',
  );
});

test('TSV: terms in SPARQL syntax, escapes in strings, xsd:string left plain', async () => {
  const out = await renderResult(TABLE, 'text/*');
  assert.equal(out.contentType, 'text/csv; charset=utf-8'); // text/* picks the first text type offered
  const tsv = await renderResult(TABLE, 'text/tab-separated-values');
  assert.equal(
    tsv.body,
    `?s\t?label\t?n\n<http://ex.org/a?x=1&y=2>\t"say \\"hi\\", <b>\\tthen\\nleave"@en\t"2"^^<${XSD}integer>\n_:b0\t"plain"\t\n`,
  );
});

test('CONSTRUCT: Turtle by default, N-Triples as stored, JSON-LD on request', async () => {
  const graph: QueryResult = {
    type: 'graph',
    mediaType: 'application/n-triples',
    text: '<http://ex.org/a> <http://ex.org/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\n',
    triples: 1,
  };
  await assert.rejects(renderResult(graph, 'application/sparql-results+json'), { kind: 'not-acceptable' });
  const turtle = await renderResult(graph, undefined);
  assert.equal(turtle.contentType, 'text/turtle; charset=utf-8');
  const [quad, ...more] = await parse(turtle.body, 'turtle');
  assert.deepEqual(more, []);
  assert.deepEqual(
    [quad!.subject.value, quad!.predicate.value, quad!.object.value],
    ['http://ex.org/a', 'http://ex.org/p', '1'],
  );
  assert.equal((await renderResult(graph, 'application/n-triples')).body, graph.text);
  const jsonld = JSON.parse((await renderResult(graph, 'application/ld+json')).body);
  assert.equal(JSON.stringify(jsonld).includes('http://ex.org/p'), true);
});

function resource(name: string, format: string, upload = true): Resource {
  return {
    id: name,
    package_id: 'd',
    position: 0,
    name,
    description: '',
    format,
    url: name,
    url_type: upload ? 'upload' : 'link',
    size: 1,
    hash: '',
    mimetype: '',
    created: '',
    last_modified: '',
    blob_key: upload ? 'k' : null,
    creator_user_id: null,
    hadPrimarySource: null,
    wasGeneratedBy: null,
    derivation: null,
  };
}

test('a load takes the joined graphs when there are any, else every uploaded Turtle resource', () => {
  const csv = resource('forces.csv', 'CSV');
  const ttl = resource('forces.ttl', 'text/turtle; charset=utf-8');
  const joined = resource('forces-joined.ttl', 'text/turtle; charset=utf-8');
  const link = resource('remote.ttl', 'TTL', false);
  assert.deepEqual(
    loadableResources([csv, ttl, joined, link]).map((r) => r.name),
    ['forces-joined.ttl'],
  );
  assert.deepEqual(
    loadableResources([csv, ttl, link]).map((r) => r.name),
    ['forces.ttl'],
  );
  assert.deepEqual(loadableResources([csv]), []);
});
