// Issue 27's validate step, end to end on the embedded bus: after convert, the joined graph is
// checked with SHACL against the shapes beside its mapping in the library
// (`<mapping base>-shapes.ttl`). No shapes: the step is done with "no shapes" and stores nothing.
// Shapes the graph breaks: `<base>-validation.ttl` (a sh:ValidationReport) is stored, the
// dataset page lists the results (focus node, path, message, severity) and warns at Load.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLabld } from '../support/labld.ts';
import { readSeed, seedFixture } from '../support/shared.ts';
import { sleep } from '../support/wait.ts';
import { api, person, type Person } from '../catalogue/actions/support.ts';
import { TEMPLATE_URL } from '../converter/support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dict = Record<string, any>;

let labld: Awaited<ReturnType<typeof startLabld>>;
let alice: Person;
const saved = process.env['LABLD_FETCH_ALLOW'];

async function call(action: string, body: Dict): Promise<Dict> {
  const answer = await api(labld.url, action, { body, headers: { authorization: alice.token } });
  assert.equal(answer.status, 200, `${action}: ${JSON.stringify(answer.body.error)}`);
  return answer.body.result as Dict;
}

async function upload(dataset: string, file: Blob, name: string): Promise<Dict> {
  const form = new FormData();
  form.set('package_id', dataset);
  form.set('upload', file, name);
  const answer = await api(labld.url, 'resource_create', { form, headers: { authorization: alice.token } });
  assert.equal(answer.status, 200, JSON.stringify(answer.body.error));
  return answer.body.result as Dict;
}

/** The source's steps once validate (or any step) has ended. */
async function validated(resourceId: string): Promise<Dict[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = await call('labld_status_show', { resource_id: resourceId });
    const steps = (status.resources as Dict[]).find((r) => r.resource_id === resourceId)?.steps as
      Dict[] | undefined;
    const ended = steps?.some((s) => s.state === 'failed' || (s.step === 'validate' && s.state === 'done'));
    if (steps && ended) return steps;
    if (Date.now() > deadline) throw new Error(`validate did not end: ${JSON.stringify(steps)}`);
    await sleep(200);
  }
}

// Every typed node must have ex:neverThere: the joined graph breaks it at each of them.
const SHAPES = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix ex: <https://example.org/shapes#> .
ex:Typed a sh:NodeShape ;
  sh:targetSubjectsOf rdf:type ;
  sh:property [ sh:path ex:neverThere ; sh:minCount 1 ; sh:message "every typed node needs ex:neverThere" ] .
`;

const csv = () => new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]);
const names = async (dataset: string) =>
  ((await call('package_show', { id: dataset })).resources as Dict[]).map((r) => r.name as string);

before(async () => {
  process.env['LABLD_FETCH_ALLOW'] = '';
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  alice = await person(store, 'alice', true);
  await store.close();
  // A library whose template is a resource of this catalogue (no network), and its mapping.
  await call('package_create', { name: 'library' });
  await call('member_create', { id: 'mappings', object: 'library', object_type: 'package' });
  const template = await upload(
    'library',
    new Blob([readSeed('maptomethod/templates/DIN_EN_ISO_527-3.drawio.ttl')]),
    'DIN_EN_ISO_527-3.drawio.ttl',
  );
  const mapping = readSeed('rdfconverter/csvw-template-map.yaml').replaceAll(TEMPLATE_URL, template.url);
  await upload('library', new Blob([mapping]), 'tensile-map.yaml');
});
after(async () => {
  await labld?.stop();
  if (saved === undefined) delete process.env['LABLD_FETCH_ALLOW'];
  else process.env['LABLD_FETCH_ALLOW'] = saved;
});

test('with no shapes beside the mapping, validate is done with "no shapes" and stores no report', async () => {
  await call('package_create', { name: 'plain' });
  const source = await upload('plain', csv(), 'example.csv');
  const steps = await validated(source.id as string);
  const validate = steps.find((s) => s.step === 'validate');
  assert.equal(validate?.state, 'done', JSON.stringify(steps));
  assert.equal(validate.summary.note, 'no shapes');
  assert.ok(!(await names('plain')).includes('example-validation.ttl'));
});

test('shapes beside the mapping: the report is stored, listed on the dataset page, and Load warns', async () => {
  await upload('library', new Blob([SHAPES]), 'tensile-map-shapes.ttl');
  await call('package_create', { name: 'checked' });
  const source = await upload('checked', csv(), 'example.csv');
  const steps = await validated(source.id as string);
  const validate = steps.find((s) => s.step === 'validate');
  assert.equal(validate?.state, 'done', JSON.stringify(steps));
  assert.equal(validate.summary.validation.conforms, false);
  assert.ok(validate.summary.validation.total > 0);

  const report = ((await call('package_show', { id: 'checked' })).resources as Dict[]).find(
    (r) => r.name === 'example-validation.ttl',
  );
  assert.ok(report, 'the report is a resource of the dataset');
  const text = await (await fetch(report.url as string, { headers: { authorization: alice.token } })).text();
  assert.match(text, /ValidationReport/);
  assert.match(text, /every typed node needs ex:neverThere/);

  const page = await (await fetch(`${labld.url}/dataset/checked`)).text();
  assert.match(page, /SHACL validation/);
  assert.match(page, /<td>Violation<\/td>/);
  assert.match(page, /https:\/\/example\.org\/shapes#neverThere/);
  assert.match(page, /every typed node needs ex:neverThere/);
  assert.match(page, /does not conform to its shapes/);
});

test('conformance is a search facet: counted by package_search, searchable, listed on the search page', async () => {
  const found = await call('package_search', { 'facet.field': ['shacl'], include_private: true });
  const items = (found.search_facets.shacl.items as Dict[]).map((i) => [i.name, i.count]).sort();
  assert.deepEqual(items, [
    ['nonconforming', 1],
    ['unchecked', 1],
  ]);
  const failing = await call('package_search', { q: 'shacl:nonconforming' });
  assert.deepEqual(
    (failing.results as Dict[]).map((d) => d.name),
    ['checked'],
  );
  const page = await (await fetch(`${labld.url}/dataset`)).text();
  assert.match(page, /<nav class="facet" aria-label="SHACL validation">/);
  assert.match(
    page,
    /href="\/dataset\?q=shacl%3Anonconforming">nonconforming<\/a> <span class="count">\(1\)<\/span>/,
  );
  const filtered = await (await fetch(`${labld.url}/dataset?q=shacl%3Anonconforming`)).text();
  assert.match(filtered, /1 dataset found/);
});
