// Every mapper endpoint on random input through HTTP: never a 5xx, and every 4xx is a
// {"detail": "…"} naming the problem. URLs come from a pool (served documents, refused and
// unreachable addresses, non-URLs) so that no run dials out.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from '../support/fc.ts';
import { startFileServer, type FileServer } from '../support/file-server.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { DESCRIPTOR_PATH, TEMPLATE_PATH, read } from './support.ts';

let labld: Running;
let files: FileServer;
let urls: string[];

before(async () => {
  process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
  files = await startFileServer();
  files.put('/d/example-metadata.json', read(DESCRIPTOR_PATH), 'application/json');
  files.put('/t/template.ttl', read(TEMPLATE_PATH), 'text/turtle');
  files.put('/x/page.html', '<html><body>no</body></html>', 'text/html');
  files.put('/x/empty.json', '{}', 'application/json');
  urls = [
    files.url('/d/example-metadata.json'),
    files.url('/t/template.ttl'),
    files.url('/x/page.html'),
    files.url('/x/empty.json'),
    files.url('/x/missing'),
    'http://127.0.0.1:9/closed',
    'http://10.0.0.1/private',
    'ftp://127.0.0.1/x',
    'not a url',
    '',
  ];
  labld = await startLabld();
});
after(async () => {
  await labld?.stop();
  await files?.stop();
});

async function check(response: Response, what: string): Promise<void> {
  assert.ok(response.status < 500, `${what} gave ${response.status}`);
  if (response.status >= 400) {
    const body = (await response.json()) as { detail: unknown };
    assert.equal(typeof body.detail, 'string', what);
    assert.notEqual(body.detail, '', what);
  } else {
    await response.arrayBuffer();
  }
}

const url = () => fc.oneof(fc.constantFrom(...urls), fc.string({ maxLength: 30 }));
const names = fc.oneof(
  fc.constantFrom(
    'SpecimenID',
    'AktuelleProbe0',
    'table-1-Standardkraft',
    'ForceMeasurement',
    'template:SpecimenID',
  ),
  fc.string({ maxLength: 20 }),
);
const types = fc.oneof(
  fc.constantFrom(
    'http://www.w3.org/2002/07/owl%23NamedIndividual',
    'csvw:Column',
    'http://www.w3.org/ns/oa',
    '',
  ),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
);

test('GET /api/types with random url values', async () => {
  await fc.assert(
    fc.asyncProperty(url(), async (value) => {
      const target = `${labld.url}/mapper/api/types?url=${encodeURIComponent(value)}`;
      await check(await fetch(target), target);
    }),
    { numRuns: 40 },
  );
});

test('GET /api/entities with random url and types values', async () => {
  await fc.assert(
    fc.asyncProperty(url(), fc.option(types), async (value, typeList) => {
      const query = `url=${encodeURIComponent(value)}${typeList === null ? '' : `&types=${typeList}`}`;
      const target = `${labld.url}/mapper/api/entities?${query}`;
      await check(await fetch(target), target);
    }),
    { numRuns: 40 },
  );
});

test('POST /api/mapping with random bodies', async () => {
  const anything = fc.jsonValue({ maxDepth: 2 });
  const body = fc.oneof(
    fc
      .record(
        {
          data_url: fc.oneof(url(), anything),
          template_url: fc.oneof(url(), anything),
          map: fc.oneof(fc.dictionary(names, names, { maxKeys: 4 }), anything),
          predicate: fc.oneof(fc.constantFrom('bfo:RO_0010002', 'RO_0010002'), anything),
          use_template_rowwise: fc.oneof(fc.boolean(), anything),
          data_types: fc.oneof(fc.constant(['csvw:Column']), anything),
          template_types: anything,
        },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
    anything.map((value) => JSON.stringify(value)),
    fc.string({ maxLength: 60 }),
  );
  await fc.assert(
    fc.asyncProperty(body, async (text) => {
      const response = await fetch(`${labld.url}/mapper/api/mapping`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      await check(response, `POST ${text}`);
    }),
    { numRuns: 80 },
  );
});
