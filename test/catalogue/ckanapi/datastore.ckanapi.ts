// The DataStore API of CKAN 2.10/2.11 driven by PyPI's ckanapi (datastore.py): records_format
// lists and csv, datastore_search_sql over POST and GET (and its refusals as the exceptions
// ckanapi raises for a CKAN site), datastore_info, datastore_upsert. .ci/run makes the virtual
// environment and points LABLD_CKANAPI_PYTHON at its python; unset, this fails, not skips.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Running } from '../../support/labld.ts';
import { labldWithScientist, runCkanapiScript } from './run-script.ts';

let labld: Running & { dataDir: string };
let out: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

before(async () => {
  const started = await labldWithScientist();
  labld = started.labld;
  out = await runCkanapiScript('datastore.py', [labld.url, started.token]);
});

after(() => labld?.stop());

test('datastore_search records_format=lists: rows as lists in the order of fields', () => {
  assert.equal(out.lists.records_format, 'lists');
  assert.deepEqual(out.lists.records, [
    [2, 'b', 10],
    [3, 'c', 2],
    [1, 'a', 1.5],
  ]);
  assert.deepEqual(
    out.lists.fields.map((f: { id: string }) => f.id),
    ['_id', 'sample', 'force'],
  );
  assert.equal(out.csv.records, 'a,1.5\nb,10\nc,2\n');
});

test('datastore_search_sql over POST and GET: the records and fields of one SELECT', () => {
  assert.deepEqual(out.sql.records, [
    { sample: 'c', doubled: 4 },
    { sample: 'b', doubled: 20 },
  ]);
  assert.deepEqual(
    out.sql.fields.map((f: { id: string }) => f.id),
    ['sample', 'doubled'],
  );
  assert.equal(Number(out.sql_get.records[0].n), 3);
});

test('datastore_search_sql refusals reach ckanapi as CKAN’s exceptions', () => {
  assert.equal(out.sql_drop.raised, 'ValidationError');
  assert.match(String(out.sql_drop.error.sql), /only SELECT/);
  assert.equal(out.sql_function.raised, 'NotAuthorized');
  assert.match(out.sql_function.message, /pg_read_file/);
});

test('datastore_info and datastore_upsert', () => {
  assert.equal(out.info.meta.count, 3);
  assert.deepEqual(out.info.primary_key, ['sample']);
  assert.deepEqual(
    out.info.fields.map((f: { id: string; type: string }) => [f.id, f.type]),
    [
      ['sample', 'text'],
      ['force', 'numeric'],
    ],
  );
  assert.equal(out.upsert.method, 'upsert');
  assert.equal(out.update_missing.raised, 'ValidationError');
  assert.ok(out.update_missing.error.key);
  assert.deepEqual(out.after.records, [
    [1, 'a', 5],
    [2, 'b', 10],
    [3, 'c', 2],
    [4, 'd', 0],
  ]);
});
