// DCAT on a whole labld, as ckanext-dcat serves it: /dataset/<id or name>.<ext> in every format,
// the dataset page negotiated by Accept, /catalog.<ext> paged with hydra; what a caller may not
// read is absent (the catalog) or Not Found exactly as a missing dataset (the dataset); and any
// name or id asked for is answered 200 or 404, never a 500.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type * as RDF from '@rdfjs/types';
import { createToken } from '../../lib/catalogue/auth/tokens.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { parse, isomorphic, type RdfFormat } from '../../lib/rdf/index.ts';
import fc from '../support/fc.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { api } from './actions/support.ts';

const DCAT = 'http://www.w3.org/ns/dcat#';
const DCT = 'http://purl.org/dc/terms/';
const HYDRA = 'http://www.w3.org/ns/hydra/core#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';

let labld: Running & { dataDir: string };
let previousPageSize: string | undefined;
const tokens = { owner: '', other: '' };
const ids: Record<string, string> = {};
let upload: Record<string, unknown>;

const url = (path: string) => `${labld.url}${path}`;
/** IRIs are made from BASE_URL (here `http://localhost:<port>`), which need not be the address called. */
let site = '';
const iri = (path: string) => `${site}${path}`;
const auth = (token: string) => ({ authorization: token });

before(async () => {
  previousPageSize = process.env['CKANINI__CKANEXT__DCAT__DATASETS_PER_PAGE'];
  process.env['CKANINI__CKANEXT__DCAT__DATASETS_PER_PAGE'] = '2';
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  try {
    for (const name of ['owner', 'other'] as const) {
      const user = await store.createUser({ name });
      const token = createToken();
      await store.createToken({ user_id: user.id, name: 'dcat', token_hash: token.hash });
      tokens[name] = token.token;
    }
  } finally {
    await store.close();
  }
  const make = async (body: Record<string, unknown>) => {
    const made = await api(labld.url, 'package_create', { body, headers: auth(tokens.owner) });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    ids[body.name as string] = made.body.result.id as string;
  };
  await make({
    name: 'tensile',
    title: 'Tensile tests',
    notes: 'Forces of steel samples',
    tags: [{ name: 'steel' }],
    license_id: 'cc-by',
    maintainer: 'M. Maintainer',
    maintainer_email: 'maintainer@lab.test',
    url: 'https://lab.example.org/tensile',
  });
  await make({ name: 'secret', title: 'Secret', private: true });
  await make({ name: 'second', title: 'Second' });
  await make({ name: 'third', title: 'Third' });
  const form = new FormData();
  form.set('package_id', 'tensile');
  // Not an extension that starts the chain: its outputs would change the graph between requests.
  form.set('upload', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'forces.dat');
  const made = await api(labld.url, 'resource_create', { form, headers: auth(tokens.owner) });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  upload = made.body.result as Record<string, unknown>;
  site = new URL(upload.url as string).origin;
});

after(async () => {
  await labld?.stop();
  if (previousPageSize === undefined) delete process.env['CKANINI__CKANEXT__DCAT__DATASETS_PER_PAGE'];
  else process.env['CKANINI__CKANEXT__DCAT__DATASETS_PER_PAGE'] = previousPageSize;
});

const FORMATS: [string, string, RdfFormat][] = [
  ['ttl', 'text/turtle', 'turtle'],
  ['jsonld', 'application/ld+json', 'json-ld'],
  ['rdf', 'application/rdf+xml', 'xml'],
  ['xml', 'application/rdf+xml', 'xml'],
  ['n3', 'text/n3', 'n3'],
];

async function graph(response: Response, type: string, format: RdfFormat): Promise<RDF.Quad[]> {
  const body = await response.text();
  assert.equal(response.status, 200, body);
  assert.equal(response.headers.get('content-type'), `${type}; charset=utf-8`);
  return parse(body, format);
}

const has = (quads: RDF.Quad[], s: string, p: string, o: string) =>
  quads.some((q) => q.subject.value === s && q.predicate.value === p && q.object.value === o);

const objects = (quads: RDF.Quad[], s: string, p: string) =>
  quads.filter((q) => q.subject.value === s && q.predicate.value === p).map((q) => q.object.value);

describe('DCAT of one dataset', () => {
  test('every extension, by name and by id, is the same graph with the dataset and its file', async () => {
    const graphs: RDF.Quad[][] = [];
    for (const [ext, type, format] of FORMATS) {
      for (const ref of ['tensile', ids.tensile!]) {
        graphs.push(await graph(await fetch(url(`/dataset/${ref}.${ext}`)), type, format));
      }
    }
    for (const other of graphs.slice(1)) assert.ok(await isomorphic(graphs[0]!, other), 'the same graph');
    const quads = graphs[0]!;
    const dataset = iri(`/dataset/${ids.tensile}`);
    const distribution = `${dataset}/resource/${upload.id as string}`;
    assert.ok(has(quads, dataset, RDF_TYPE, `${DCAT}Dataset`));
    assert.ok(has(quads, dataset, `${DCT}title`, 'Tensile tests'));
    assert.ok(has(quads, dataset, `${DCAT}keyword`, 'steel'));
    assert.ok(has(quads, dataset, `${DCAT}landingPage`, 'https://lab.example.org/tensile'));
    assert.ok(has(quads, dataset, `${DCAT}distribution`, distribution));
    assert.ok(has(quads, distribution, `${DCAT}downloadURL`, upload.url as string));
    assert.ok(has(quads, distribution, `${DCAT}byteSize`, '8'));
    // The download URL in the graph is the file.
    const file = await fetch(objects(quads, distribution, `${DCAT}downloadURL`)[0]!);
    assert.equal(await file.text(), 'a,b\n1,2\n');
  });

  test('the dataset page by Accept: RDF types get DCAT, a browser the page with links to it', async () => {
    const turtle = await fetch(url('/dataset/tensile'), { headers: { accept: 'text/turtle' } });
    assert.match(turtle.headers.get('vary') ?? '', /accept/i);
    const byAccept = await graph(turtle, 'text/turtle', 'turtle');
    const byExtension = await graph(await fetch(url('/dataset/tensile.ttl')), 'text/turtle', 'turtle');
    assert.ok(await isomorphic(byAccept, byExtension));
    const jsonld = await fetch(url('/dataset/tensile'), {
      headers: { accept: 'text/html;q=0.5, application/ld+json' },
    });
    await graph(jsonld, 'application/ld+json', 'json-ld');
    const browser = await fetch(url('/dataset/tensile'), {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    assert.equal(browser.status, 200);
    assert.match(browser.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(browser.headers.get('vary') ?? '', /accept/i);
    const html = await browser.text();
    assert.match(html, /<link rel="alternate" type="text\/turtle" href="\/dataset\/tensile\.ttl">/);
    assert.match(
      html,
      /<link rel="alternate" type="application\/ld\+json" href="\/dataset\/tensile\.jsonld">/,
    );
    assert.match(html, /<link rel="alternate" type="application\/rdf\+xml" href="\/dataset\/tensile\.rdf">/);
  });

  test('a private dataset: its people read it; anyone else gets what a missing dataset gets', async () => {
    for (const ref of ['secret', ids.secret!]) {
      const own = await fetch(url(`/dataset/${ref}.ttl`), { headers: auth(tokens.owner) });
      assert.ok(
        has(
          await graph(own, 'text/turtle', 'turtle'),
          iri(`/dataset/${ids.secret}`),
          `${DCT}title`,
          'Secret',
        ),
      );
    }
    const answer = async (path: string, headers: Record<string, string>) => {
      const response = await fetch(url(path), { headers });
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        body: await response.text(),
      };
    };
    for (const headers of [{}, auth(tokens.other)]) {
      for (const [hidden, missing] of [
        ['secret', 'absent'],
        [ids.secret!, '5b0c5d3e-0000-4000-8000-000000000000'],
      ]) {
        for (const [path, accept] of [
          ['.ttl', {}],
          ['.jsonld', {}],
          ['', { accept: 'text/turtle' }],
        ] as const) {
          const seen = await answer(`/dataset/${hidden}${path}`, { ...headers, ...accept });
          const absent = await answer(`/dataset/${missing}${path}`, { ...headers, ...accept });
          assert.equal(seen.status, 404);
          assert.deepEqual(
            { ...seen, body: seen.body.replaceAll(hidden!, '{ref}') },
            {
              ...absent,
              body: absent.body.replaceAll(missing!, '{ref}'),
            },
          );
        }
      }
    }
  });
});

describe('DCAT catalog', () => {
  const datasetsOf = (quads: RDF.Quad[]) => objects(quads, site, `${DCAT}dataset`).sort();

  test('lists what the caller may read, in pages with hydra links, in every format', async () => {
    const page1 = await graph(await fetch(url('/catalog.ttl')), 'text/turtle', 'turtle');
    const page2 = await graph(await fetch(url('/catalog.ttl?page=2')), 'text/turtle', 'turtle');
    assert.ok(has(page1, site, RDF_TYPE, `${DCAT}Catalog`));
    const visible = ['tensile', 'second', 'third'].map((n) => iri(`/dataset/${ids[n]}`)).sort();
    assert.deepEqual([...datasetsOf(page1), ...datasetsOf(page2)].sort(), visible);
    assert.equal(datasetsOf(page1).length, 2);
    const first = iri('/catalog.ttl?page=1');
    assert.deepEqual(objects(page1, first, `${HYDRA}totalItems`), ['3']);
    assert.deepEqual(objects(page1, first, `${HYDRA}next`), [iri('/catalog.ttl?page=2')]);
    assert.deepEqual(objects(page1, first, `${HYDRA}nextPage`), [iri('/catalog.ttl?page=2')]);
    assert.deepEqual(objects(page2, iri('/catalog.ttl?page=2'), `${HYDRA}next`), []);
    // The owner sees the private one too.
    const owners = await fetch(url('/catalog.ttl?page=1'), { headers: auth(tokens.owner) });
    const ownPage = await graph(owners, 'text/turtle', 'turtle');
    assert.deepEqual(objects(ownPage, first, `${HYDRA}totalItems`), ['4']);
    for (const [ext, type, format] of FORMATS.slice(1)) {
      const quads = await graph(await fetch(url(`/catalog.${ext}`)), type, format);
      assert.deepEqual(datasetsOf(quads), datasetsOf(page1));
    }
  });

  test('q and fq as package_search; a bad page or an unknown parameter is a 4xx naming it', async () => {
    const found = await graph(await fetch(url('/catalog.ttl?q=tensile')), 'text/turtle', 'turtle');
    assert.deepEqual(datasetsOf(found), [iri(`/dataset/${ids.tensile}`)]);
    const filtered = await graph(await fetch(url('/catalog.ttl?fq=name:second')), 'text/turtle', 'turtle');
    assert.deepEqual(datasetsOf(filtered), [iri(`/dataset/${ids.second}`)]);
    for (const [query, field] of [
      ['page=0', 'page'],
      ['page=x', 'page'],
      ['modified_since=2026-01-01', 'modified_since'],
      ['fq=title:[a TO b]', 'fq'],
    ] as const) {
      const response = await fetch(url(`/catalog.ttl?${query}`));
      const body = (await response.json()) as { detail: string };
      assert.ok(response.status >= 400 && response.status < 500, `${query}: ${response.status}`);
      assert.match(body.detail, new RegExp(field), query);
    }
  });
});

test('property: any dataset name or id asked for is 200 (a dataset one may read) or 404, never a 500', async () => {
  const known = new Set(['tensile', 'second', 'third', ids.tensile, ids.second, ids.third]);
  const ref = fc.oneof(
    fc.string({ minLength: 1, maxLength: 100 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 50 }),
    fc.stringMatching(/^[a-z0-9_-]{1,100}$/),
    fc.uuid(),
    fc.constantFrom('tensile', 'secret', ids.secret!, ids.tensile!, 'new', '..', '.', '%', 'a.ttl'),
  );
  await fc.assert(
    fc.asyncProperty(ref, fc.constantFrom('ttl', 'jsonld', 'rdf'), async (name, ext) => {
      const response = await fetch(url(`/dataset/${encodeURIComponent(name)}.${ext}`));
      await response.arrayBuffer();
      const expected = known.has(name) ? 200 : 404;
      assert.equal(response.status, expected, `${JSON.stringify(name)}.${ext}`);
    }),
    { numRuns: 150 },
  );
});

test('property: any page, q and fq of the catalog is answered 200 or a 4xx naming the parameter, never a 500', async () => {
  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom('', '999999999', '-1', '1e3', '(', '"', 'name:', '*'),
  );
  await fc.assert(
    fc.asyncProperty(fc.record({ page: text, q: text, fq: text }, { requiredKeys: [] }), async (params) => {
      const response = await fetch(url(`/catalog.ttl?${new URLSearchParams(params).toString()}`));
      const body = await response.text();
      if (response.status === 200) return;
      assert.ok(
        response.status >= 400 && response.status < 500,
        `${JSON.stringify(params)}: ${response.status} ${body}`,
      );
      const detail = (JSON.parse(body) as { detail: string }).detail;
      assert.ok(
        Object.keys(params).some((name) => detail.includes(name)),
        `${JSON.stringify(params)}: ${detail}`,
      );
    }),
    { numRuns: 150 },
  );
});
