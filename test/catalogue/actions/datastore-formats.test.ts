// The Action API's datastore additions of issue 26 as CKAN 2.10/2.11 answer them:
// datastore_search's records_format (objects, lists, csv, tsv) and distinct, datastore_info's
// meta and fields, datastore_create's primary_key and datastore_upsert's methods and errors.
// Expected answers are written out here (the store's side runs on both stores in
// test/datastore/upsert-conformance.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ckanError } from '../../../gateways/kit/ckan-errors.ts';
import { runAction } from '../../../lib/catalogue/actions/index.ts';
import type { DomainError } from '../../../lib/process/errors.ts';
import { datasetWithResource, embeddedCatalogue, person, type Catalogue, type Person } from './support.ts';

describe('datastore actions of CKAN 2.10/2.11', () => {
  let catalogue: Catalogue;
  let owner: Person;
  let id = '';
  const call = (action: string, params: Record<string, unknown>) =>
    runAction(catalogue.deps, { kind: 'token', hash: owner.tokenHash }, action, params) as Promise<
      Record<string, unknown>
    >;
  const refusal = async (action: string, params: Record<string, unknown>) =>
    call(action, params).then(
      () => assert.fail(`${action} answered`),
      (error: DomainError) => ckanError(error),
    );

  before(async () => {
    catalogue = await embeddedCatalogue();
    owner = await person(catalogue.deps.store, 'owner');
    id = await datasetWithResource(catalogue.deps.store, owner, 'formats');
    await call('datastore_create', {
      resource_id: id,
      fields: [
        { id: 'code', type: 'text' },
        { id: 'force', type: 'numeric' },
      ],
      primary_key: 'code',
      records: [
        { code: 'a,1', force: 1.5 },
        { code: 'say "hi"', force: null },
        { code: 'tab\there', force: 1.5 },
      ],
    });
  });
  after(() => catalogue?.dispose());

  it('records_format: lists in the order of fields; csv and tsv one text without a header', async () => {
    const lists = await call('datastore_search', { resource_id: id, records_format: 'lists', sort: '_id' });
    assert.equal(lists.records_format, 'lists');
    assert.deepEqual(lists.records, [
      [1, 'a,1', 1.5],
      [2, 'say "hi"', null],
      [3, 'tab\there', 1.5],
    ]);
    assert.deepEqual(
      (lists.fields as { id: string }[]).map((f) => f.id),
      ['_id', 'code', 'force'],
    );
    const csv = await call('datastore_search', { resource_id: id, records_format: 'csv', sort: '_id' });
    assert.equal(csv.records, '1,"a,1",1.5\n2,"say ""hi""",\n3,tab\there,1.5\n');
    const tsv = await call('datastore_search', {
      resource_id: id,
      records_format: 'tsv',
      fields: 'code',
      sort: '_id',
    });
    assert.equal(tsv.records, 'a,1\n"say ""hi"""\n"tab\there"\n');
    const refused = await refusal('datastore_search', { resource_id: id, records_format: 'xml' });
    assert.equal(refused.status, 409);
    assert.ok(refused.body.error.records_format);
  });

  it('distinct: each value once, with the total of distinct rows', async () => {
    const found = await call('datastore_search', {
      resource_id: id,
      fields: 'force',
      distinct: 'true',
      sort: 'force',
    });
    assert.deepEqual(found.records, [{ force: 1.5 }, { force: null }]);
    assert.equal(found.total, 2);
  });

  it('datastore_info: meta with the count, fields with CKAN 2.11’s schema, the primary key', async () => {
    const info = await call('datastore_info', { id });
    assert.deepEqual(info, {
      meta: { id, count: 3, table_type: 'BASE TABLE', aliases: [] },
      fields: [
        {
          id: 'code',
          type: 'text',
          schema: { native_type: 'text', notnull: false, is_index: true, uniquekey: true },
        },
        {
          id: 'force',
          type: 'numeric',
          schema: { native_type: 'numeric', notnull: false, is_index: false, uniquekey: false },
        },
      ],
      primary_key: ['code'],
    });
    assert.equal((await refusal('datastore_info', {})).status, 409);
  });

  it('datastore_upsert: upsert (default), update, insert; CKAN’s errors for a key', async () => {
    await call('datastore_upsert', {
      resource_id: id,
      records: [{ code: 'a,1', force: 7 }, { code: 'new' }],
    });
    await call('datastore_upsert', {
      resource_id: id,
      method: 'update',
      records: [{ code: 'new', force: 8 }],
    });
    const found = await call('datastore_search', { resource_id: id, records_format: 'lists', sort: '_id' });
    assert.deepEqual(found.records, [
      [1, 'a,1', 7],
      [2, 'say "hi"', null],
      [3, 'tab\there', 1.5],
      [4, 'new', 8],
    ]);
    const missing = await refusal('datastore_upsert', {
      resource_id: id,
      method: 'update',
      records: [{ force: 1 }],
    });
    assert.equal(missing.status, 409);
    assert.match(String(missing.body.error.key), /"code" are missing but needed as key/);
    const unknown = await refusal('datastore_upsert', {
      resource_id: id,
      method: 'update',
      records: [{ code: 'zz' }],
    });
    assert.match(String(unknown.body.error.key), /not found/);
    const taken = await refusal('datastore_upsert', {
      resource_id: id,
      method: 'insert',
      records: [{ code: 'new' }],
    });
    assert.equal(taken.status, 409);
    assert.equal((await refusal('datastore_upsert', { resource_id: id, method: 'merge' })).status, 409);
  });
});
