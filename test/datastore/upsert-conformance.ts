// The Datastore's writes by key and distinct reads, on every store (issue 26): datastore_upsert's
// insert / update / upsert by the table's primary key or `_id`, with CKAN's refusals, all or
// nothing; datastore_create's primary_key; datastore_search's distinct. Expected rows are
// written out here from the records given.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Datastore, Field } from '../../lib/datastore/contract.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { freshStores, type ConformanceEnvironment } from './conformance.ts';

const SAMPLES: Field[] = [
  { id: 'code', type: 'text' },
  { id: 'run', type: 'int' },
  { id: 'force', type: 'numeric' },
  { id: 'day', type: 'date' },
];

const START = [
  { code: 'A', run: 1, force: 1.5, day: '2024-01-01' },
  { code: 'A', run: 2, force: 2.5, day: '2024-01-02' },
  { code: 'B', run: 1, force: 3.5, day: null },
];

async function refusal(promise: Promise<unknown>, kind: string, field: string, text: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, kind, error.message);
    assert.equal(error.field, field, error.message);
    assert.match(error.message, text);
    return true;
  });
}

const rows = async (s: Datastore) => (await s.search({ resource_id: 'samples', sort: '_id' })).records;

export function upsertConformance(env: ConformanceEnvironment): void {
  describe(`Datastore upsert and distinct (${env.name})`, () => {
    const { open, reconnect } = freshStores(env);
    const withSamples = async (key: string[] | undefined = ['code', 'run']) => {
      const s = await open();
      await s.create('samples', SAMPLES, START, key);
      return s;
    };

    it('keeps the primary key (info), across a reopen', async () => {
      let s = await withSamples();
      assert.deepEqual((await s.info('samples')).primary_key, ['code', 'run']);
      await s.close();
      s = await reconnect();
      assert.deepEqual((await s.info('samples')).primary_key, ['code', 'run']);
    });

    it('update changes the given fields of the row its key names and keeps the others', async () => {
      const s = await withSamples();
      assert.equal(await s.upsert('samples', [{ code: 'A', run: 2, force: 9 }], 'update'), 1);
      assert.deepEqual(await rows(s), [
        { _id: 1, code: 'A', run: 1, force: 1.5, day: '2024-01-01' },
        { _id: 2, code: 'A', run: 2, force: 9, day: '2024-01-02' },
        { _id: 3, code: 'B', run: 1, force: 3.5, day: null },
      ]);
      // By _id, too, as CKAN.
      await s.upsert('samples', [{ _id: 3, day: '2024-02-02' }], 'update');
      assert.equal((await rows(s))[2]?.day, '2024-02-02');
    });

    it('upsert updates a known key and inserts an unknown one; insert refuses a taken key', async () => {
      const s = await withSamples();
      await s.upsert(
        'samples',
        [
          { code: 'B', run: 1, force: 4 },
          { code: 'C', run: 7, force: 5 },
        ],
        'upsert',
      );
      assert.deepEqual(await rows(s), [
        { _id: 1, code: 'A', run: 1, force: 1.5, day: '2024-01-01' },
        { _id: 2, code: 'A', run: 2, force: 2.5, day: '2024-01-02' },
        { _id: 3, code: 'B', run: 1, force: 4, day: null },
        { _id: 4, code: 'C', run: 7, force: 5, day: null },
      ]);
      await refusal(
        s.upsert('samples', [{ code: 'A', run: 1 }], 'insert'),
        'conflict',
        'records',
        /primary key/,
      );
      // A datastore_create appending to the table is an insert: the key is checked there too.
      await refusal(
        s.create('samples', SAMPLES, [{ code: 'C', run: 7 }], ['code', 'run']),
        'conflict',
        'records',
        /primary key/,
      );
      await s.upsert('samples', [{ code: 'D', run: 1 }], 'insert');
      assert.equal((await s.info('samples')).count, 5);
    });

    it('refuses as CKAN: a key not found, key fields missing, no key on the table; nothing kept of a failed call', async () => {
      const s = await withSamples();
      const before = await rows(s);
      await refusal(
        s.upsert(
          'samples',
          [
            { code: 'A', run: 1, force: 0 },
            { code: 'Z', run: 9, force: 0 },
          ],
          'update',
        ),
        'invalid',
        'key',
        /not found/,
      );
      await refusal(
        s.upsert('samples', [{ code: 'A', force: 0 }], 'upsert'),
        'invalid',
        'key',
        /"run" are missing but needed as key/,
      );
      await refusal(
        s.upsert('samples', [{ code: 'A', run: 1, nope: 1 }], 'upsert'),
        'invalid',
        'records',
        /nope/,
      );
      await refusal(
        s.upsert('samples', [{ code: 'A', run: 1, force: 'many' }], 'upsert'),
        'invalid',
        'records',
        /many/,
      );
      assert.deepEqual(await rows(s), before);
      await s.create('plain', SAMPLES, START);
      await refusal(s.upsert('plain', [{ code: 'A', run: 1 }], 'update'), 'invalid', 'table', /unique key/);
      await refusal(s.create('bad', SAMPLES, [], ['nope']), 'invalid', 'primary_key', /nope/);
      await refusal(
        s.create('samples', SAMPLES, [], ['code']),
        'conflict',
        'primary_key',
        /cannot be changed/,
      );
    });

    it('distinct gives each combination of the chosen fields once, sorted, with its total', async () => {
      const s = await withSamples();
      const found = await s.search({
        resource_id: 'samples',
        fields: ['code'],
        distinct: true,
        sort: 'code desc',
      });
      assert.deepEqual(found.records, [{ code: 'B' }, { code: 'A' }]);
      assert.equal(found.total, 2);
      const pairs = await s.search({
        resource_id: 'samples',
        fields: 'run,code',
        distinct: true,
        sort: 'run, code',
        filters: { code: ['A', 'B'] },
      });
      assert.deepEqual(pairs.records, [
        { run: 1, code: 'A' },
        { run: 1, code: 'B' },
        { run: 2, code: 'A' },
      ]);
      await assert.rejects(
        s.search({ resource_id: 'samples', fields: ['code'], distinct: true, sort: 'run' }),
        (e: DomainError) => e.field === 'sort',
      );
    });
  });
}
