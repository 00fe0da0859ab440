// Making a mapping in the browser (issue 28, item 1), over HTTP on a whole labld: a CSV the
// library has no mapping for waits in "needs a mapping"; its step links the builder, which offers
// the library's template, lists every column with a select, and saves the YARRRML the mapper
// makes into the library — after which the waiting CSV is selected again and converted.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { csrfOf, getPage, postForm } from './support/login.ts';
import { startBuilderLabld, stateOf, type BuilderLabld } from './support/builder-labld.ts';

type Dict = Record<string, unknown>;

let lab: BuilderLabld;
const libraryNames = async () =>
  ((await lab.call('package_show', { id: 'library' })).resources as Dict[]).map((r) => String(r.name));

/** The seed request's map (research: MapToMethod's example), as the builder's selects send it. */
const CHOICES: Record<string, string> = {
  'map.AktuelleProbe0': 'SpecimenID',
  'map.ProbenbreiteB03': 'WidthMeasurement',
  'map.ProbendickeA04': 'ThicknessMeasurement',
  'map.table-1-Standardkraft': 'ForceMeasurement',
  'map.table-1-Standardweg': 'LengthMeasurement',
  'map.Pruefgeschwindigkeit5': 'CrossheadSpeedSetPointValue',
  'map.Vorkraft6': 'PreLoadSetPointValue',
};

before(async () => {
  lab = await startBuilderLabld();
});
after(() => lab.labld.stop());

/** The builder's address on the dataset page's "needs a mapping" step. */
async function builderLink(): Promise<string> {
  const { html } = await getPage(`${lab.labld.url}/dataset/tensile`, lab.jars.get('maker')!);
  const link = /<a href="([^"]+)">make a mapping for it<\/a>/.exec(html);
  assert.ok(link, 'the step that needs a mapping links the builder');
  return link[1]!.replaceAll('&amp;', '&');
}

/** The builder's form as the maker sends it: the offered template, the seed's choices, `changes`. */
async function save(changes: Record<string, string>): Promise<Response> {
  const jar = lab.jars.get('maker')!;
  const { html } = await getPage(`${lab.labld.url}${await builderLink()}`, jar);
  const template = /name="template" type="radio" value="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
  return postForm(`${lab.labld.url}/group/mappings/mapping`, jar, {
    _csrf: csrfOf(html),
    dataset: 'tensile',
    resource: lab.csv,
    template,
    shelf: 'library',
    name: 'tensile-map.yaml',
    ...CHOICES,
    ...changes,
  });
}

test('the step links the builder, which offers the library’s template; chosen, every column has a labelled select', async () => {
  const link = await builderLink();
  assert.equal(link, `/group/mappings/mapping/new?dataset=tensile&resource=${lab.csv}`);
  const jar = lab.jars.get('maker')!;
  const first = await getPage(`${lab.labld.url}${link}`, jar);
  assert.equal(first.status, 200);
  const radio = /<input id="template-0" name="template" type="radio" value="([^"]+)">/.exec(first.html);
  assert.ok(radio, 'the library’s Turtle file is offered');
  assert.match(
    first.html,
    /<label for="template-0">DIN_EN_ISO_527-3\.drawio\.ttl \(in Mapping library\)<\/label>/,
  );
  assert.doesNotMatch(first.html, /<select id="map-/, 'no columns before a template is chosen');

  const template = radio[1]!.replaceAll('&amp;', '&');
  const chosen = await getPage(`${lab.labld.url}${link}&${new URLSearchParams({ template })}`, jar);
  assert.equal(chosen.status, 200);
  for (const [entity, label] of [
    ['table-1-Standardkraft', 'Standardkraft'],
    ['table-1-Dehnung', 'Dehnung'],
    ['AktuelleProbe0', 'aktuelle Probe'],
  ]) {
    const select = new RegExp(
      `<label for="(map-\\d+)">${label} <code class="meta">${entity}</code></label>\\s*<select id="\\1" name="map\\.${entity}"`,
    );
    assert.match(chosen.html, select, `${entity} has a labelled select`);
  }
  // Every individual of the template is offered (35 in the DIN template, research §2.4).
  const options = /<select id="map-0"[^>]*>([\s\S]*?)<\/select>/.exec(chosen.html)![1]!;
  assert.equal([...options.matchAll(/<option value="[^"]/g)].length, 35);
  // The name the mapper gives the file (MapToMethod's rule: example-metadata.jsonld → example-map.yaml).
  assert.match(
    chosen.html,
    /<input id="builder-name" name="name" type="text" maxlength="200" value="example-map\.yaml">/,
  );
  assert.match(
    chosen.html,
    /<select id="builder-shelf" name="shelf"><option value="library">Mapping library<\/option><\/select>/,
  );
});

test('a save without the CSRF field is refused and makes nothing', async () => {
  const before = await libraryNames();
  const response = await postForm(`${lab.labld.url}/group/mappings/mapping`, lab.jars.get('maker')!, {
    dataset: 'tensile',
    resource: lab.csv,
    template: 'http://example.org/t.ttl',
    shelf: 'library',
    ...CHOICES,
  });
  assert.equal(response.status, 403);
  assert.deepEqual(await libraryNames(), before);
});

test('a choice the template does not hold is told on the page, with the choices kept', async () => {
  const before = await libraryNames();
  const response = await save({ 'map.table-1-Dehnung': 'NoSuchIndividual' });
  assert.equal(response.status, 400);
  const page = await response.text();
  assert.match(page, /<p class="error" role="alert">map: 1 of 8 entries do not resolve[^<]*NoSuchIndividual/);
  assert.match(
    page,
    /<option value="ForceMeasurement" selected>ForceMeasurement<\/option>/,
    'the choices are kept',
  );
  assert.deepEqual(await libraryNames(), before);
});

test('the library page links the builder, which starts from the uploads waiting for a mapping', async () => {
  const jar = lab.jars.get('maker')!;
  const library = await getPage(`${lab.labld.url}/group/mappings`, jar);
  assert.match(library.html, /<a href="\/group\/mappings\/mapping\/new">Make a mapping in the browser<\/a>/);
  const start = await getPage(`${lab.labld.url}/group/mappings/mapping/new`, jar);
  assert.equal(start.status, 200);
  assert.match(
    start.html,
    new RegExp(
      `<li><a href="/group/mappings/mapping/new\\?dataset=tensile&amp;resource=${lab.csv}">example\\.csv</a>`,
    ),
  );
  assert.match(start.html, /<label for="builder-descriptor">Or the URL of a CSVW descriptor<\/label>/);
});

test('a typed template URL goes through the fetch guard: a private address or labld’s own is refused on the page', async () => {
  const jar = lab.jars.get('maker')!;
  const link = await builderLink();
  for (const url of ['http://10.0.0.1/template.ttl', `${lab.labld.url}/metrics`]) {
    const { status, html } = await getPage(
      `${lab.labld.url}${link}&${new URLSearchParams({ template_url: url })}`,
      jar,
    );
    assert.ok(status >= 400 && status < 500, `${url}: ${status}`);
    assert.match(html, /<p class="error" role="alert">url: [^<]*refused/, url);
    assert.doesNotMatch(html, /labld_/, 'nothing of the metrics is echoed');
    assert.match(
      html,
      /<input id="template-url" name="template_url" type="url" value="[^"]+"/,
      'the URL is kept to correct',
    );
  }
});

test('a reader with no library dataset to add to sees the columns but is told where to start one', async () => {
  const link = await builderLink();
  const jar = lab.jars.get('reader')!;
  const { html } = await getPage(`${lab.labld.url}${link}`, jar);
  const template = /name="template" type="radio" value="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
  const chosen = await getPage(`${lab.labld.url}${link}&${new URLSearchParams({ template })}`, jar);
  assert.equal(chosen.status, 200);
  assert.match(
    chosen.html,
    /No dataset of the library is open to you for adding: <a href="\/group\/mappings#add-mapping">/,
  );
  assert.doesNotMatch(chosen.html, /Save the mapping/);
  const anonymous = await fetch(`${lab.labld.url}${link}`, { headers: { accept: 'text/html' } });
  assert.equal(anonymous.status, 401);
});

test('saving the choices makes a library mapping; the waiting CSV is selected again and converted', async () => {
  const response = await save({ 'map.table-1-Dehnung': '' });
  assert.equal(response.status, 303, await response.text());
  assert.equal(response.headers.get('location'), '/dataset/tensile#automation');
  assert.ok((await libraryNames()).includes('tensile-map.yaml'));

  const steps = await lab.stepsWhen(lab.csv, (s) => stateOf(s, 'convert') === 'done');
  const select = steps.find((s) => s.step === 'select-mapping')!;
  assert.equal((select.summary!.mapping as Dict).name, 'tensile-map.yaml');
  const names = ((await lab.call('package_show', { id: 'tensile' })).resources as Dict[]).map((r) => r.name);
  assert.ok(names.includes('example-joined.ttl'), `the joined graph appears: ${names.join(', ')}`);
  const shown = await lab.call('labld_mapping_library_show', {});
  assert.deepEqual(shown.waiting, []);
  const mapping = (shown.mappings as Dict[]).find((m) => m.name === 'tensile-map.yaml')!;
  assert.equal((mapping.summary as Dict).rules, 7);
});

test('from a descriptor’s URL (no upload named): saved under the mapper’s file name, to the new mapping’s page', async () => {
  const jar = lab.jars.get('maker')!;
  const tensile = (await lab.call('package_show', { id: 'tensile' })).resources as Dict[];
  const descriptor = String(tensile.find((r) => r.name === 'example-metadata.jsonld')!.url);
  const start = `${lab.labld.url}/group/mappings/mapping/new?${new URLSearchParams({ descriptor })}`;
  const { html } = await getPage(start, jar);
  const template = /name="template" type="radio" value="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
  const response = await postForm(`${lab.labld.url}/group/mappings/mapping`, jar, {
    _csrf: csrfOf(html),
    descriptor,
    template,
    shelf: 'library',
    name: '',
    'map.table-1-Standardkraft': 'ForceMeasurement',
  });
  assert.equal(response.status, 303, await response.text());
  const made = ((await lab.call('package_show', { id: 'library' })).resources as Dict[]).find(
    (r) => r.name === 'example-map.yaml',
  );
  assert.ok(made, `MapToMethod's name for example-metadata.jsonld: ${(await libraryNames()).join(', ')}`);
  assert.equal(response.headers.get('location'), `/dataset/library/resource/${String(made.id)}`);
});
