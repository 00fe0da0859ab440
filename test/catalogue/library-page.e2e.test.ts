// The mapping library's page (issue 28): /group/mappings lists each mapping with what it maps
// (the template, the sources it reads, the template individuals it links to — as written in the
// seed mapping), which uploads were converted with it (their joined graphs), and an upload form
// for those who may add to a library dataset.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLibraryLabld, type LibraryLabld } from '../chain/library-labld.ts';
import { seedFixture } from '../support/shared.ts';
import { sleep } from '../support/wait.ts';
import { api, person, type Person } from './actions/support.ts';

let lab: LibraryLabld;
let stranger: Person;

before(async () => {
  lab = await startLibraryLabld();
  const store = await openCatalogueStore({ dataDir: lab.labld.dataDir });
  stranger = await person(store, 'stranger');
  await store.close();
});
after(() => lab.stop());

const page = async (token?: string) => {
  const response = await fetch(`${lab.labld.url}/group/mappings`, {
    headers: { accept: 'text/html', ...(token ? { authorization: token } : {}) },
  });
  assert.equal(response.status, 200);
  return response.text();
};

/** The text of the first <dd> after the <dt> named `term` (tags dropped, spaces squeezed). */
function fact(html: string, term: string): string {
  const match = new RegExp(`<dt>${term}</dt>\\s*<dd[^>]*>([\\s\\S]*?)</dd>`).exec(html);
  assert.ok(match, `the page has a ${term}`);
  return match[1]!
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

test('the library page lists the mapping with its template, sources and the individuals it links to', async () => {
  const html = await page();
  assert.match(html, /<h2 id="library-heading">Mappings \(1\)<\/h2>/);
  assert.match(html, /<h3><a href="\/dataset\/library\/resource\/[^"]+">csvw-template-map\.yaml<\/a><\/h3>/);
  // As the seed mapping's YAML says (its `template:` prefix, `sources:` and po objects).
  assert.match(fact(html, 'Template'), /^http:\/\/127\.0\.0\.1:\d+\/.*DIN_EN_ISO_527-3\.drawio\.ttl$/);
  assert.equal(fact(html, 'Reads'), 'columns ($..columns[*]), annotations ($.notes[*])');
  assert.equal(fact(html, 'Rules'), '7');
  assert.equal(
    fact(html, 'Links to'),
    'CrossheadSpeedSetPointValue ForceMeasurement LengthMeasurement PreLoadSetPointValue SpecimenID ThicknessMeasurement WidthMeasurement',
  );
  assert.equal(fact(html, 'Predicates'), 'RO_0010002');
  assert.equal(fact(html, 'Used by'), 'no upload converted with it yet');
  assert.match(html, /<a href="\/user\/login">Log in<\/a> to add a mapping/);
});

test('an upload converted with it is listed with its joined graph', async () => {
  await lab.call('package_create', { name: 'tensile', title: 'Tensile tests' });
  const form = new FormData();
  form.set('package_id', 'tensile');
  form.set('upload', new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]), 'example.csv');
  const made = await api(lab.labld.url, 'resource_create', {
    form,
    headers: { authorization: lab.root.token },
  });
  assert.equal(made.status, 200);
  const id = made.body.result.id as string;
  for (let i = 0; ; i++) {
    const status = await lab.call('labld_status_show', { resource_id: id });
    const steps = (status.resources as { steps: { step: string; state: string }[] }[])[0]?.steps ?? [];
    if (steps.some((s) => s.step === 'convert' && s.state === 'done')) break;
    assert.ok(i < 600, `the chain did not convert: ${JSON.stringify(steps)}`);
    await sleep(100);
  }
  const html = await page();
  assert.equal(fact(html, 'Used by'), 'example.csv (Tensile tests) → example-joined.ttl');
  assert.match(html, new RegExp(`<a href="/dataset/tensile/resource/${id}">example\\.csv</a>`));
});

test('the upload form is shown to an editor of a library dataset only', async () => {
  const root = await page(lab.root.token);
  assert.match(
    root,
    /<form class="stacked" method="post" action="\/dataset\/library\/upload" enctype="multipart\/form-data">/,
  );
  assert.match(root, /<input id="mapping-file-0" name="file" type="file" accept="\.yaml,\.yml" required>/);
  const other = await page(stranger.token);
  assert.doesNotMatch(other, /action="\/dataset\/library\/upload"/);
  assert.match(other, /No dataset of the library is open to you for adding/);
});

test('a user with nowhere to add starts a library dataset of their own, then gets its upload form', async () => {
  const other = await page(stranger.token);
  assert.match(other, /<form class="stacked narrow" method="post" action="\/group\/mappings\/dataset">/);
  assert.match(other, /<input id="shelf-name" name="name" [^>]*value="mappings-stranger">/);
  const made = await fetch(`${lab.labld.url}/group/mappings/dataset`, {
    method: 'POST',
    redirect: 'manual',
    headers: { authorization: stranger.token, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'mappings-stranger', title: 'My mappings' }).toString(),
  });
  assert.equal(made.status, 303);
  assert.equal(made.headers.get('location'), '/group/mappings#add-mapping');
  const after = await page(stranger.token);
  assert.match(after, /action="\/dataset\/mappings-stranger\/upload"/);
  assert.match(after, /<label for="mapping-file-0">YARRRML mapping \(\.yaml\) for My mappings<\/label>/);
  const group = await lab.call('group_show', { id: 'mappings' });
  assert.equal(group.package_count, 2, 'library and mappings-stranger');
});
