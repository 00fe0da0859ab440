// The Action API driven by a real CKAN client: PyPI's ckanapi (RemoteCKAN with an API token),
// as a CKAN user's script would — create a dataset, upload a CSV as a resource, fill its
// datastore table, list, show, search, patch, query with filters and sort, delete. .ci/run
// makes the virtual environment and points LABLD_CKANAPI_PYTHON at its python; unset, this
// fails rather than skips.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Running } from '../../support/labld.ts';
import { labldWithScientist, runCkanapiScript } from './run-script.ts';

let labld: Running & { dataDir: string };
let out: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

before(async () => {
  const started = await labldWithScientist();
  labld = started.labld;
  const csv = join(labld.dataDir, 'measurements.csv');
  writeFileSync(csv, 'sample,force\na,1.5\nb,10\nc,2\n');
  out = await runCkanapiScript('script.py', [labld.url, started.token, csv]);
});

after(() => labld?.stop());

test('status_show answers as a CKAN site with the datastore', () => {
  assert.equal(out.status.site_title, 'labld');
  assert.deepEqual(out.status.extensions, ['datastore', 'dcat']);
});

test('package_create gives back a CKAN package dict', () => {
  const pkg = out.created;
  assert.equal(pkg.name, 'tensile-tests');
  assert.equal(pkg.title, 'Tensile tests');
  assert.equal(pkg.notes, 'From ckanapi');
  assert.equal(pkg.type, 'dataset');
  assert.equal(pkg.state, 'active');
  assert.equal(pkg.organization, null);
  assert.equal(pkg.private, false);
  assert.deepEqual(pkg.resources, []);
  assert.equal(pkg.num_resources, 0);
});

test('resource_create with a file upload stores the CSV with its size, format and download URL', () => {
  const res = out.resource;
  assert.equal(res.name, 'measurements.csv');
  assert.equal(res.package_id, out.created.id);
  assert.equal(res.url_type, 'upload');
  assert.equal(res.format, 'CSV');
  assert.equal(res.size, 'sample,force\na,1.5\nb,10\nc,2\n'.length);
  assert.match(
    res.url,
    new RegExp(`/dataset/${out.created.id}/resource/${res.id}/download/measurements\\.csv$`),
  );
});

test('datastore_create fills the table; package_list, package_show and package_search see the dataset', () => {
  assert.equal(out.datastore.total, 3);
  assert.deepEqual(out.list, ['tensile-tests']);
  // The upload and the link; the chain may already have added what it derives from the upload.
  const names = out.show.resources.map((r: { name: string }) => r.name);
  assert.ok(names.includes('measurements.csv') && names.includes('forces'), names.join(', '));
  assert.equal(out.show.num_resources, out.show.resources.length);
  const table = out.show.resources.find((r: { name: string }) => r.name === 'forces');
  assert.equal(table.datastore_active, true);
  assert.equal(out.search.count, 1);
  assert.equal(out.search.results[0].name, 'tensile-tests');
});

test('package_patch changes only the title', () => {
  assert.equal(out.patch.title, 'Tensile tests, patched');
  assert.equal(out.patch.notes, 'From ckanapi');
  assert.ok(
    out.patch.resources.some((r: { name: string }) => r.name === 'forces'),
    'resources kept',
  );
});

test('datastore_search filters by a list of values and sorts numerically, descending', () => {
  assert.deepEqual(
    out.rows.records.map((r: { sample: string; force: number }) => [r.sample, r.force]),
    [
      ['c', 2],
      ['a', 1.5],
    ],
  );
  assert.equal(out.rows.total, 2);
  assert.deepEqual(
    out.rows.fields.map((f: { id: string }) => f.id),
    ['_id', 'sample', 'force'],
  );
});

test('a public dataset’s table is readable without a token', () => {
  assert.deepEqual(
    out.rows_anonymous.returned.records.map((r: { force: number }) => r.force),
    [1.5, 2, 10],
  );
});

test('ckanapi raises the exceptions a CKAN site makes it raise', () => {
  assert.equal(out.taken.raised, 'ValidationError');
  assert.ok(Array.isArray(out.taken.error.name));
  assert.equal(out.bad_sort.raised, 'ValidationError');
  assert.ok(out.bad_sort.error.sort);
  assert.equal(out.anonymous_create.raised, 'NotAuthorized');
  assert.equal(out.unknown_action.raised, 'CKANAPIError');
  assert.equal(out.deleted, null);
  assert.equal(out.after_delete.raised, 'NotFound');
});

test('package_search facets: facets and search_facets count datasets per format, over GET too', () => {
  assert.equal(out.facets.count, 2);
  assert.equal(out.facets.facets.res_format.PDF, 1);
  assert.equal(out.facets.facets.res_format.CSV, 1);
  assert.deepEqual(out.facets.facets.groups, {});
  const pdf = out.facets.search_facets.res_format.items.find((i: { name: string }) => i.name === 'PDF');
  assert.deepEqual(pdf, { name: 'PDF', display_name: 'PDF', count: 1 });
  assert.deepEqual(out.facets_get.facets, { res_format: { PDF: 1 } });
});

test('package_search fq_list and quoted fq values, each filter applied', () => {
  assert.deepEqual(
    out.fq_list.results.map((d: { name: string }) => d.name),
    ['hardness'],
  );
  assert.deepEqual(
    out.fq_quoted.results.map((d: { name: string }) => d.name),
    ['tensile-tests'],
  );
});

test('package_search refuses what it does not read, naming it', () => {
  assert.equal(out.bad_fq.raised, 'ValidationError');
  assert.ok(out.bad_fq.error.fq);
  assert.equal(out.unknown_param.raised, 'ValidationError');
  assert.ok(out.unknown_param.error.qf);
});
