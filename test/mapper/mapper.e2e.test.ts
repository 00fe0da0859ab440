// The mapper end to end: HTTP → gateway → bus → mapper consumer → guarded fetch of documents
// served by a local HTTP server, on the transport LABLD_TEST_TRANSPORT names.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import yaml from 'js-yaml';
import { readDocument } from '../../lib/mapper/index.ts';
import { serialize } from '../../lib/rdf/index.ts';
import { startFileServer, type FileServer } from '../support/file-server.ts';
import { startLabld, type Running } from '../support/labld.ts';
import {
  DESCRIPTOR_PATH,
  EXPERIMENT_TIME_RULE,
  TEMPLATE_PATH,
  goldenMapping,
  read,
  readJson,
  replaceDeep,
  seedRequest,
} from './support.ts';

const SEED = seedRequest();
/** Columns enough for an entities answer over 1 MB: more than a Kafka message may carry. */
const WIDE = 6000;
function wideDescriptor(columns: number): string {
  const ns = 'https://lab.example.org/experiments/2026/tensile/wide-table.csv/';
  return JSON.stringify({
    '@context': 'http://www.w3.org/ns/csvw',
    '@id': `${ns.slice(0, -1)}`,
    '@type': 'TableGroup',
    tables: [
      {
        '@id': `${ns}table-1`,
        url: ns.slice(0, -1),
        tableSchema: {
          columns: Array.from({ length: columns }, (_, i) => ({
            '@id': `${ns}table-1-Channel${i}`,
            '@type': 'Column',
            name: `Channel${i}`,
          })),
        },
      },
    ],
  });
}
let labld: Running;
let files: FileServer;
let mapper: string;
const local = { data: '', template: '' };

before(async () => {
  // The fixtures are served on loopback, which the guarded fetch refuses unless allowed.
  process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
  const template = read(TEMPLATE_PATH);
  const templateDoc = await readDocument(SEED.template_url, template, { field: 'template_url' });
  files = await startFileServer();
  files.put('/examples/example-metadata.json', read(DESCRIPTOR_PATH), 'application/json');
  files.put('/methods/DIN_EN_ISO_527-3.drawio.ttl', template, 'text/turtle');
  files.put('/methods/template', template, 'text/plain');
  files.put('/methods/template.rdf', await serialize(templateDoc.quads, 'xml'), 'application/rdf+xml');
  files.put('/page.html', '<!DOCTYPE html><html><body><p>Not RDF</p></body></html>', 'text/html');
  files.put('/data.csv', 'a;b\n1;2\n', 'text/csv');
  files.put('/no-individuals.ttl', '@prefix : <https://h/t/> .\n:A a <https://h/Class> .', 'text/turtle');
  files.put('/wide-metadata.json', wideDescriptor(WIDE), 'application/json');
  files.put(
    '/no-columns.json',
    '{"@context": "http://www.w3.org/ns/csvw", "@id": "https://h/x.csv", "@type": "TableGroup", "tables": []}',
    'application/json',
  );
  local.data = files.url('/examples/example-metadata.json');
  local.template = files.url('/methods/DIN_EN_ISO_527-3.drawio.ttl');
  labld = await startLabld();
  mapper = `${labld.url}/mapper`;
});
after(async () => {
  await labld?.stop();
  await files?.stop();
});

const get = (path: string) => fetch(`${mapper}${path}`);
const post = (body: unknown) =>
  fetch(`${mapper}/api/mapping`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const q = encodeURIComponent;

/** request.json moved to the local server, with `map` changed as given. */
const seedBody = (map: Record<string, string>) => ({
  ...SEED,
  data_url: local.data,
  template_url: local.template,
  map,
});
const withoutTypo = () => {
  const map = { ...SEED.map };
  delete map['ExperimentTimeInterval'];
  return map;
};
/** The golden mapping as it reads for the locally served documents. */
const localGolden = () =>
  replaceDeep(replaceDeep(goldenMapping(), SEED.data_url, local.data), SEED.template_url, local.template);

async function detail(response: Response): Promise<string> {
  const body = (await response.json()) as { detail: unknown };
  assert.equal(typeof body.detail, 'string');
  return body.detail as string;
}

test('GET /mapper/info answers name, version v1.1.5, contact and mode', async () => {
  const response = await get('/info');
  assert.equal(response.status, 200);
  const info = (await response.json()) as Record<string, unknown>;
  assert.equal(info.name, 'MaptoMethod');
  assert.equal(info.version, 'v1.1.5');
  assert.equal(typeof info.contact, 'string');
  assert.equal(typeof info.mode, 'string');
});

test('GET /mapper/api/docs documents the three operations', async () => {
  assert.equal((await get('/api/docs')).status, 200);
  const doc = (await (await get('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
  for (const path of ['/api/types', '/api/entities', '/api/mapping']) {
    assert.ok(
      Object.keys(doc.paths).some((p) => p.endsWith(path)),
      path,
    );
  }
});

describe('GET /api/types', () => {
  test('the descriptor and the template: the original’s sorted lists', async () => {
    const data = await get(`/api/types?url=${q(local.data)}`);
    assert.equal(data.status, 200);
    assert.deepEqual(await data.json(), readJson('maptomethod/simulated/types-example-metadata.json'));
    const templateTypes = readJson('maptomethod/simulated/types-DIN_EN_ISO_527-3.json');
    for (const path of [
      '/methods/DIN_EN_ISO_527-3.drawio.ttl',
      '/methods/template',
      '/methods/template.rdf',
    ]) {
      const response = await get(`/api/types?url=${q(files.url(path))}`);
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), templateTypes, path);
    }
  });
});

describe('GET /api/entities', () => {
  test('the descriptor with the default types: the 22 entities of the original', async () => {
    const response = await get(`/api/entities?url=${q(local.data)}`);
    assert.equal(response.status, 200);
    const expected = readJson<{ base_namespace: string }>(
      'maptomethod/simulated/entities-example-metadata.json',
    );
    assert.deepEqual(await response.json(), { ...expected, base_namespace: `${local.data}/` });
  });

  test('the template with types=owl%23NamedIndividual: the 35 individuals', async () => {
    const response = await get(
      `/api/entities?url=${q(local.template)}&types=http://www.w3.org/2002/07/owl%23NamedIndividual`,
    );
    assert.equal(response.status, 200);
    const expected = readJson('maptomethod/simulated/entities-DIN_EN_ISO_527-3-namedindividual.json');
    assert.deepEqual(await response.json(), {
      ...(expected as object),
      base_namespace: `${local.template}/`,
    });
  });

  test('types as prefix:name forms, comma-separated or repeated', async () => {
    const expected = readJson<{ entities: Record<string, { type: string }> }>(
      'maptomethod/simulated/entities-example-metadata.json',
    );
    const columns = Object.keys(expected.entities).filter((name) => name.startsWith('table-1-'));
    for (const query of [
      'types=csvw:Column',
      'types=csvw:Column&types=',
      'types=csvw:Column&types=csvw:Column',
    ]) {
      const response = await get(`/api/entities?url=${q(local.data)}&${query}`);
      assert.equal(response.status, 200, query);
      const body = (await response.json()) as { entities: Record<string, unknown> };
      assert.deepEqual(Object.keys(body.entities).sort(), columns.sort(), query);
    }
  });

  test('a table wide enough that the answer travels by reference still answers every entity', async () => {
    const response = await get(`/api/entities?url=${q(files.url('/wide-metadata.json'))}`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as { entities: Record<string, { text: string }> };
    assert.equal(Object.keys(body.entities).length, WIDE);
    assert.equal(body.entities[`table-1-Channel${WIDE - 1}`]?.text, `Channel${WIDE - 1}`);
  });

  test("an unencoded '#' cuts the types value: 400 saying to write %23", async () => {
    const response = await get(
      `/api/entities?url=${q(local.template)}&types=http://www.w3.org/2002/07/owl#NamedIndividual`,
    );
    assert.equal(response.status, 400);
    assert.match(await detail(response), /^types: http:\/\/www\.w3\.org\/2002\/07\/owl is not a type .* %23/);
  });
});

describe('POST /api/mapping', () => {
  test('request.json as it stands: 400 naming table-1-Prüfzeit, suggesting table-1-Pruefzeit', async () => {
    const response = await post(seedBody(SEED.map));
    assert.equal(response.status, 400);
    assert.match(
      await detail(response),
      /"ExperimentTimeInterval": "table-1-Prüfzeit" — .*closest: table-1-Pruefzeit/,
    );
  });

  test('without that entry: example-map.yaml as an attachment with the original’s name', async () => {
    const response = await post(seedBody(withoutTypo()));
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/x-yaml/);
    assert.match(
      response.headers.get('content-disposition') ?? '',
      /^attachment; filename="?example-map\.yaml"?$/,
    );
    assert.equal(response.headers.get('access-control-expose-headers'), 'Content-Disposition');
    assert.deepEqual(yaml.load(await response.text()), localGolden());
  });

  test("the spec's orientation, {data entity: template individual IRI}, gives the same file", async () => {
    const map = Object.fromEntries(
      Object.entries(withoutTypo()).map(([individual, entity]) => [
        entity,
        `${SEED.template_url}/${individual}`,
      ]),
    );
    const response = await post(seedBody(map));
    assert.equal(response.status, 200);
    assert.deepEqual(yaml.load(await response.text()), localGolden());
  });

  test('with the entry corrected the eighth rule is there', async () => {
    const response = await post(seedBody({ ...SEED.map, ExperimentTimeInterval: 'table-1-Pruefzeit' }));
    assert.equal(response.status, 200);
    const mapping = yaml.load(await response.text()) as { mappings: Record<string, unknown> };
    assert.deepEqual(Object.keys(mapping.mappings).length, 8);
    assert.deepEqual(mapping.mappings['ExperimentTimeInterval'], EXPERIMENT_TIME_RULE);
  });
});

describe('bad input: a 4xx {"detail"} naming the field', () => {
  const cases: [string, () => Promise<Response>, number, RegExp][] = [
    ['types without url', () => get('/api/types'), 422, /^query\.url: is required/],
    ['types with a URL that is no URL', () => get('/api/types?url=not%20a%20url'), 422, /^query\.url: /],
    ['an unreachable URL', () => get(`/api/types?url=${q('http://127.0.0.1:9/x.ttl')}`), 422, /^url: /],
    [
      'a refused address',
      () => get(`/api/entities?url=${q('http://10.1.2.3/x.ttl')}`),
      403,
      /^url: .*refused/,
    ],
    ['a 404 upstream', () => get(`/api/types?url=${q(files.url('/missing.ttl'))}`), 422, /^url: .*404/],
    ['a scheme other than http(s)', () => get(`/api/types?url=${q('file:///etc/passwd')}`), 400, /^url: /],
    ['an HTML page', () => get(`/api/types?url=${q(files.url('/page.html'))}`), 422, /^url: /],
    ['a CSV file', () => get(`/api/entities?url=${q(files.url('/data.csv'))}`), 422, /^url: could not parse/],
    [
      'entities with a type that is no IRI',
      () => get(`/api/entities?url=${q(local.data)}&types=Column`),
      400,
      /^types: "Column" is not an IRI/,
    ],
    [
      'mapping without map',
      () => post({ data_url: local.data, template_url: local.template }),
      422,
      /^body\.map: is required/,
    ],
    ['mapping with an empty map', () => post(seedBody({})), 400, /^map: is empty/],
    ['mapping with a number in map', () => post({ ...seedBody({}), map: { a: 1 } }), 422, /^body\.map\.a: /],
    [
      'a predicate of unknown form',
      () => post({ ...seedBody(withoutTypo()), predicate: 'RO_0010002' }),
      400,
      /^predicate: /,
    ],
    [
      'a template with no named individuals',
      () => post({ ...seedBody(withoutTypo()), template_url: files.url('/no-individuals.ttl') }),
      400,
      /^template_url: the template has no owl:NamedIndividual/,
    ],
    [
      'a descriptor with no columns',
      () => post({ ...seedBody(withoutTypo()), data_url: files.url('/no-columns.json') }),
      400,
      /^data_url: the document has no entities/,
    ],
    [
      'a template that is not RDF',
      () => post({ ...seedBody(withoutTypo()), template_url: files.url('/page.html') }),
      422,
      /^template_url: /,
    ],
    [
      'a refused data_url',
      () => post({ ...seedBody(withoutTypo()), data_url: 'http://169.254.169.254/latest' }),
      403,
      /^data_url: /,
    ],
  ];
  for (const [name, call, status, pattern] of cases) {
    test(name, async () => {
      const response = await call();
      assert.equal(response.status, status);
      assert.match(await detail(response), pattern);
    });
  }
});
