// The Datastore contract suite, written against contract.ts only. Each implementation's test
// file supplies an environment handing out fresh, isolated namespaces (a temporary SQLite
// file, a PostgreSQL schema with a random name).
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from '../support/fc.ts';
import type {
  Datastore,
  DatastoreRecord,
  Field,
  InputRecord,
  SearchParams,
} from '../../lib/datastore/contract.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { referenceSearch } from './reference.ts';
import { bucketCases } from './buckets-conformance.ts';

export interface Namespace {
  connect(): Promise<Datastore>;
  dispose(): Promise<void>;
}

export interface ConformanceEnvironment {
  name: string;
  fresh(): Promise<Namespace>;
}

/** Asserts that `promise` rejects with a DomainError of `kind` naming `field`. */
async function refused(promise: Promise<unknown>, kind: string, field: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof DomainError, `a DomainError, got ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    assert.equal(error.field, field, error.message);
    return true;
  });
}

const PEOPLE: Field[] = [
  { id: 'name', type: 'text' },
  { id: 'group', type: 'text' },
  { id: 'n', type: 'numeric' },
  { id: 'count', type: 'int' },
  { id: 'ok', type: 'bool' },
];

const people: InputRecord[] = [
  { name: 'Ada', group: 'b', n: 10, count: 1, ok: true },
  { name: 'bob', group: 'a', n: 9, count: 2, ok: false },
  { name: 'Cy', group: 'b', n: 100, count: 3, ok: true },
  { name: 'dora the 50%', group: 'a', n: '2.5', count: '4', ok: 'false' },
  { name: 'Eve', group: 'c', n: null, count: 5, ok: null },
  { name: 'Fay', group: 'b', n: -1e3, count: 6, ok: true },
];

const names = (records: DatastoreRecord[]) => records.map((r) => r.name);

/**
 * Inside a describe: `open`, a fresh store, closed and its namespace disposed after each test;
 * `reconnect`, the namespace's store again after its close.
 */
export function freshStores(env: ConformanceEnvironment): {
  open: () => Promise<Datastore>;
  reconnect: () => Promise<Datastore>;
} {
  // Every namespace a test opened is disposed after it (a test may open several), with the
  // store last connected to it (a test closes the ones it reconnects from itself).
  let opened: { ns: Namespace; store: Datastore }[] = [];
  afterEach(async () => {
    for (const { ns, store } of opened) {
      await store.close();
      await ns.dispose();
    }
    opened = [];
  });
  return {
    async open() {
      const ns = await env.fresh();
      const store = await ns.connect();
      opened.push({ ns, store });
      await store.ready();
      return store;
    },
    async reconnect() {
      const last = opened.at(-1) as { ns: Namespace; store: Datastore };
      last.store = await last.ns.connect();
      return last.store;
    },
  };
}

export function datastoreConformance(env: ConformanceEnvironment): void {
  describe(`Datastore conformance (${env.name})`, () => {
    const { open, reconnect } = freshStores(env);
    const withPeople = async (): Promise<Datastore> => {
      const s = await open();
      await s.create('people', PEOPLE, people);
      return s;
    };

    it('creates a table and returns its records with _id, the fields and the total', async () => {
      const s = await withPeople();
      const info = await s.info('people');
      assert.deepEqual(info, { resource_id: 'people', fields: PEOPLE, primary_key: [], count: 6 });
      const result = await s.search({ resource_id: 'people' });
      assert.deepEqual(result.fields, [{ id: '_id', type: 'int' }, ...PEOPLE]);
      assert.equal(result.total, 6);
      assert.equal(result.limit, 100);
      assert.deepEqual(result.records[3], {
        _id: 4,
        name: 'dora the 50%',
        group: 'a',
        n: 2.5,
        count: 4,
        ok: false,
      });
      assert.deepEqual(result.records[4], { _id: 5, name: 'Eve', group: 'c', n: null, count: 5, ok: null });
      assert.deepEqual(
        result.records.map((r) => r._id),
        [1, 2, 3, 4, 5, 6],
      );
    });

    it('keeps its tables across close and reopen', async () => {
      const s = await withPeople();
      await s.close();
      const again = await reconnect();
      assert.equal((await again.info('people')).count, 6);
      const page = await again.search({ resource_id: 'people', sort: 'n desc', limit: 1 });
      assert.deepEqual(names(page.records), ['Eve']);
    });

    it('pages with limit and offset (default 100, at most 32000), pages never overlap', async () => {
      const s = await open();
      await s.create('many', [{ id: 'i', type: 'int' }]);
      const inserted = await s.insert('many', [Array.from({ length: 150 }, (_, i) => ({ i: 150 - i }))]);
      assert.equal(inserted, 150);
      const first = await s.search({ resource_id: 'many', sort: 'i asc' });
      assert.equal(first.records.length, 100);
      assert.equal(first.total, 150);
      const second = await s.search({ resource_id: 'many', sort: 'i asc', offset: 100, limit: 100 });
      assert.deepEqual(
        [...first.records, ...second.records].map((r) => r.i),
        Array.from({ length: 150 }, (_, i) => i + 1),
      );
      const none = await s.search({ resource_id: 'many', limit: 0 });
      assert.deepEqual([none.records, none.total], [[], 150]);
      await refused(s.search({ resource_id: 'many', limit: 32001 }), 'invalid', 'limit');
      await refused(s.search({ resource_id: 'many', limit: -1 }), 'invalid', 'limit');
      await refused(s.search({ resource_id: 'many', offset: 1.5 }), 'invalid', 'offset');
    });

    it('inserts many rows in order across statements, any text kept as it was', async () => {
      const s = await open();
      const fields: Field[] = [
        { id: 't', type: 'text' },
        { id: 'n', type: 'numeric' },
        { id: 'b', type: 'bool' },
        { id: 'd', type: 'date' },
      ];
      await s.create('bulk', fields);
      // Text an array literal or a statement could mistake: quotes, backslashes, braces,
      // commas, the word NULL, blanks, an empty string (text: kept), non-ASCII.
      const texts = ['a"b', 'c\\d', '{x,y}', 'NULL', ' ', '', 'Grüße 😀', "it's", '\\"'];
      const rows = (from: number, n: number): InputRecord[] =>
        Array.from({ length: n }, (_, k) => {
          const i = from + k;
          return [
            texts[i % texts.length],
            i % 7 === 0 ? null : i / 8,
            i % 3 === 0,
            i % 5 === 0 ? null : '2024-01-31',
          ];
        });
      // 12,345 rows in uneven batches: more than a statement's worth in either store.
      const inserted = await s.insert('bulk', [rows(0, 1), rows(1, 5000), rows(5001, 7344)]);
      assert.equal(inserted, 12345);
      assert.equal((await s.info('bulk')).count, 12345);
      const page = await s.search({ resource_id: 'bulk', offset: 12335, limit: 10 });
      assert.deepEqual(
        page.records,
        rows(12335, 10).map((r, k) => {
          const [t, n, b, d] = r as unknown[];
          return { _id: 12336 + k, t, n, b, d };
        }),
      );
      for (const [k, text] of texts.entries()) {
        const found = await s.search({ resource_id: 'bulk', filters: { t: text }, limit: 0 });
        // every 9th row from k on, of 12,345
        assert.equal(found.total, Math.ceil((12345 - k) / texts.length), JSON.stringify(text));
      }
    });

    it('sorts numbers as numbers, nulls last, on several columns', async () => {
      const s = await withPeople();
      const asc = await s.search({ resource_id: 'people', sort: 'n asc' });
      assert.deepEqual(
        asc.records.map((r) => r.n),
        [-1000, 2.5, 9, 10, 100, null],
      );
      const desc = await s.search({ resource_id: 'people', sort: 'n desc' });
      assert.deepEqual(
        desc.records.map((r) => r.n),
        [null, 100, 10, 9, 2.5, -1000],
      );
      const multi = await s.search({ resource_id: 'people', sort: 'group asc, n desc' });
      assert.deepEqual(names(multi.records), ['bob', 'dora the 50%', 'Cy', 'Ada', 'Fay', 'Eve']);
      const byName = await s.search({ resource_id: 'people', sort: 'name' });
      assert.deepEqual(names(byName.records), ['Ada', 'Cy', 'Eve', 'Fay', 'bob', 'dora the 50%']);
      const byId = await s.search({ resource_id: 'people', sort: '_id desc', limit: 2 });
      assert.deepEqual(names(byId.records), ['Fay', 'Eve']);
    });

    it('filters by one value or a list, read by the column type', async () => {
      const s = await withPeople();
      const b = await s.search({ resource_id: 'people', filters: { group: 'b' } });
      assert.deepEqual([names(b.records), b.total], [['Ada', 'Cy', 'Fay'], 3]);
      const list = await s.search({ resource_id: 'people', filters: { group: ['a', 'c'], ok: false } });
      assert.deepEqual(names(list.records), ['bob', 'dora the 50%']);
      const numeric = await s.search({ resource_id: 'people', filters: { n: '10' } });
      assert.deepEqual(names(numeric.records), ['Ada']);
      const many = await s.search({ resource_id: 'people', filters: { n: [9, 100, 7] } });
      assert.deepEqual(names(many.records), ['bob', 'Cy']);
      const none = await s.search({ resource_id: 'people', filters: { group: [] } });
      assert.deepEqual(none.records, []);
      const nulls = await s.search({ resource_id: 'people', filters: { n: null } });
      assert.deepEqual(names(nulls.records), ['Eve']);
      await refused(s.search({ resource_id: 'people', filters: { missing: 'x' } }), 'invalid', 'filters');
      await refused(s.search({ resource_id: 'people', filters: { n: 'ten' } }), 'invalid', 'filters');
      await refused(s.search({ resource_id: 'people', filters: { n: { $gt: 1 } } }), 'invalid', 'filters');
    });

    it('finds words of q in text columns, case-insensitively, or per column', async () => {
      const s = await withPeople();
      const one = await s.search({ resource_id: 'people', q: 'ADA' });
      assert.deepEqual(names(one.records), ['Ada']);
      const both = await s.search({ resource_id: 'people', q: 'dora 50%' });
      assert.deepEqual(names(both.records), ['dora the 50%']);
      const wildcard = await s.search({ resource_id: 'people', q: '_' });
      assert.deepEqual(wildcard.records, [], '_ is a character, not a wildcard');
      const percent = await s.search({ resource_id: 'people', q: '%' });
      assert.deepEqual(names(percent.records), ['dora the 50%']);
      const perColumn = await s.search({ resource_id: 'people', q: { group: 'B' }, sort: 'name desc' });
      assert.deepEqual(names(perColumn.records), ['Fay', 'Cy', 'Ada']);
      await refused(s.search({ resource_id: 'people', q: { nope: 'x' } }), 'invalid', 'q');
      await refused(s.search({ resource_id: 'people', q: { n: '10' } }), 'invalid', 'q');
    });

    it('returns the fields asked for, and the total only when asked', async () => {
      const s = await withPeople();
      const some = await s.search({ resource_id: 'people', fields: ['n', 'name'], limit: 1 });
      assert.deepEqual(some.fields, [
        { id: 'n', type: 'numeric' },
        { id: 'name', type: 'text' },
      ]);
      assert.deepEqual(some.records, [{ n: 10, name: 'Ada' }]);
      const text = await s.search({
        resource_id: 'people',
        fields: '_id, group',
        limit: 1,
        include_total: false,
      });
      assert.deepEqual(text.records, [{ _id: 1, group: 'b' }]);
      assert.equal(text.total, undefined);
      await refused(s.search({ resource_id: 'people', fields: ['name', 'salary'] }), 'invalid', 'fields');
    });

    it('deletes matching rows, or the whole table', async () => {
      const s = await withPeople();
      assert.equal(await s.delete('people', { group: 'b', ok: true }), 3);
      assert.deepEqual(names((await s.search({ resource_id: 'people' })).records), [
        'bob',
        'dora the 50%',
        'Eve',
      ]);
      await refused(s.delete('people', { nope: 1 }), 'invalid', 'filters');
      assert.equal((await s.info('people')).count, 3);
      assert.equal(await s.delete('people'), 3);
      await refused(s.search({ resource_id: 'people' }), 'not-found', 'resource_id');
      await refused(s.info('people'), 'not-found', 'resource_id');
      await refused(s.delete('people'), 'not-found', 'resource_id');
    });

    it('appends on a second create with the same fields; other fields conflict; bad fields are refused', async () => {
      const s = await withPeople();
      await s.create('people', PEOPLE, [{ name: 'Gil', n: 1 }]);
      assert.equal((await s.info('people')).count, 7);
      await refused(s.create('people', [{ id: 'name', type: 'text' }]), 'conflict', 'fields');
      await refused(s.create('x', [{ id: 'a', type: 'blob' as 'text' }]), 'invalid', 'fields');
      await refused(s.create('x', [{ id: '_a', type: 'text' }]), 'invalid', 'fields');
      await refused(
        s.create('x', [
          { id: 'a', type: 'text' },
          { id: 'a', type: 'int' },
        ]),
        'invalid',
        'fields',
      );
      await refused(s.create('x', []), 'invalid', 'fields');
      await refused(s.search({ resource_id: 'x' }), 'not-found', 'resource_id');
    });

    it('inserts a stream of batches all or nothing', async () => {
      const s = await withPeople();
      async function* batches(bad: boolean) {
        yield [{ name: 'p1', n: 1 }];
        await new Promise((resolve) => setImmediate(resolve));
        yield [{ name: 'p2', n: bad ? 'two' : 2 }, { name: 'p3' }];
      }
      assert.equal(await s.insert('people', batches(false)), 3);
      assert.equal((await s.info('people')).count, 9);
      await refused(s.insert('people', batches(true)), 'invalid', 'records');
      await refused(s.insert('people', [[{ name: 'x', salary: 1 }]]), 'invalid', 'records');
      await refused(s.insert('people', [[null as unknown as InputRecord]]), 'invalid', 'records');
      assert.equal((await s.info('people')).count, 9, 'nothing of the refused inserts stays');
      await refused(s.insert('nobody', [[{ name: 'x' }]]), 'not-found', 'resource_id');
    });

    it('inserts column batches (numbers in a Float64Array, others in lists) as the same records', async () => {
      const s = await open();
      const fields: Field[] = [
        { id: 'x', type: 'numeric' },
        { id: 'k', type: 'int' },
        { id: 'ok', type: 'bool' },
        { id: 'note', type: 'text' },
      ];
      await s.create('columns', fields);
      const first = {
        rows: 2,
        columns: [Float64Array.of(2.5, -1e-3), [3, null], [true, false], ['a, "b"', null]],
      };
      const second = { rows: 1, columns: [[null], Float64Array.of(-7), [null], ['ü']] };
      assert.equal(await s.insert('columns', [first, second]), 3);
      const result = await s.search({ resource_id: 'columns', sort: '_id' });
      assert.deepEqual(result.records, [
        { _id: 1, x: 2.5, k: 3, ok: true, note: 'a, "b"' },
        { _id: 2, x: -0.001, k: null, ok: false, note: null },
        { _id: 3, x: null, k: -7, ok: null, note: 'ü' },
      ]);
      // Read by the field's type as records are: a fraction is no int, and nothing is kept.
      await refused(
        s.insert('columns', [{ rows: 1, columns: [[1], [1.5], [true], ['t']] }]),
        'invalid',
        'records',
      );
      await refused(s.insert('columns', [{ rows: 1, columns: [[1], [1]] }]), 'invalid', 'records');
      assert.equal((await s.info('columns')).count, 3);
    });

    it('keeps types: dates, timestamps, booleans, integers, nulls', async () => {
      const s = await open();
      const fields: Field[] = [
        { id: 'd', type: 'date' },
        { id: 't', type: 'timestamp' },
        { id: 'f', type: 'float' },
        { id: 'i', type: 'int', info: { label: 'count', unit: 'http://qudt.org/vocab/unit/NUM' } },
      ];
      await s.create('typed', fields, [
        { d: '2024-02-29', t: '2024-02-29 13:45', f: 0.1, i: 7 },
        { d: '1999-12-31', t: '1999-12-31T23:59:59.250', f: '-1.5e3', i: '-3' },
        { d: '', t: null, f: '', i: null },
      ]);
      const result = await s.search({ resource_id: 'typed', sort: 'd asc' });
      assert.deepEqual(result.records, [
        { _id: 2, d: '1999-12-31', t: '1999-12-31T23:59:59.25', f: -1500, i: -3 },
        { _id: 1, d: '2024-02-29', t: '2024-02-29T13:45:00', f: 0.1, i: 7 },
        { _id: 3, d: null, t: null, f: null, i: null },
      ]);
      assert.deepEqual((await s.info('typed')).fields, fields);
      const filtered = await s.search({ resource_id: 'typed', filters: { t: '2024-02-29T13:45:00' } });
      assert.deepEqual(
        filtered.records.map((r) => r._id),
        [1],
      );
      await refused(s.insert('typed', [[{ d: '2023-02-29' }]]), 'invalid', 'records');
      await refused(s.insert('typed', [[{ i: 1.5 }]]), 'invalid', 'records');
      await refused(s.insert('typed', [[{ t: 'yesterday' }]]), 'invalid', 'records');
    });

    it('refuses injection in sort, filters and fields, and q and values stay data: nothing changes', async () => {
      const s = await withPeople();
      const before = await s.search({ resource_id: 'people' });
      for (const sort of [
        'name; DROP TABLE people',
        'name asc; DELETE FROM people',
        '(SELECT 1)',
        'name asc --',
        '"name" asc, "x" desc',
        'n desc nulls first',
      ]) {
        await refused(s.search({ resource_id: 'people', sort }), 'invalid', 'sort');
      }
      await refused(
        s.search({ resource_id: 'people', filters: { 'name"; DROP TABLE people; --': 'x' } }),
        'invalid',
        'filters',
      );
      await refused(
        s.search({ resource_id: 'people', fields: ['name', '1; DROP TABLE people'] }),
        'invalid',
        'fields',
      );
      await refused(s.delete('people', { "name' OR '1'='1": 'x' }), 'invalid', 'filters');
      const value = await s.search({ resource_id: 'people', filters: { name: "x' OR '1'='1" } });
      assert.deepEqual(value.records, []);
      assert.equal(await s.delete('people', { name: "' OR 1=1; --" }), 0);
      const q = await s.search({ resource_id: 'people', q: "%' OR 1=1; DROP TABLE people; --" });
      assert.deepEqual(q.records, []);
      await refused(s.search({ resource_id: "people'; DROP TABLE people; --" }), 'not-found', 'resource_id');
      assert.deepEqual(await s.search({ resource_id: 'people' }), before);
    });

    it('takes any column name: quotes, SQL words, unicode, commas, long names', async () => {
      const s = await open();
      const odd = ['a"b', 'select', 'x; drop', 'Prüfzeit [°C]', '名前', 'a, b', "it's", 'x'.repeat(200)];
      const fields: Field[] = odd.map((id, i) => ({ id, type: i % 2 ? 'numeric' : 'text' }));
      const row = (k: number) =>
        Object.fromEntries(odd.map((id, i) => [id, i % 2 ? k * (i + 1) : `v${k}-${id}`]));
      await s.create('odd', fields, [row(1), row(2), row(3)]);
      const quoted = (id: string) => `"${id.replaceAll('"', '""')}"`;
      for (const [i, id] of odd.entries()) {
        const sorted = await s.search({
          resource_id: 'odd',
          sort: `${quoted(id)} desc`,
          fields: [id, '_id'],
        });
        assert.deepEqual(
          sorted.records.map((r) => r._id),
          [3, 2, 1],
          id,
        );
        assert.deepEqual(Object.keys(sorted.records[0] as object), [id, '_id']);
        const filtered = await s.search({
          resource_id: 'odd',
          filters: { [id]: i % 2 ? 2 * (i + 1) : `v2-${id}` },
        });
        assert.deepEqual(filtered.records, [{ _id: 2, ...row(2) }], id);
      }
      const plain = await s.search({ resource_id: 'odd', sort: 'select desc, 名前', limit: 1 });
      assert.equal(plain.records[0]?._id, 3);
      const unicode = await s.search({ resource_id: 'odd', q: { 名前: 'v1-名' } });
      assert.deepEqual(
        unicode.records.map((r) => r._id),
        [1],
      );
    });

    it('answers a random search as a plain in-memory reference does', async () => {
      const s = await open();
      const fields: Field[] = [
        { id: 'n', type: 'numeric' },
        { id: 't', type: 'text' },
        { id: 'b', type: 'bool' },
        { id: 'i', type: 'int' },
      ];
      const text = fc.string({ unit: fc.constantFrom('a', 'b', 'B', 'ä', 'z', ' ', '%'), maxLength: 4 });
      const record = fc.record({
        n: fc.option(
          fc.integer({ min: -50, max: 50 }).map((v) => v / 4),
          { freq: 5 },
        ),
        t: fc.option(text, { freq: 5 }),
        b: fc.option(fc.boolean(), { freq: 5 }),
        i: fc.integer({ min: 0, max: 5 }),
      });
      const column = fc.constantFrom('n', 't', 'b', 'i', '_id');
      const query = fc.record(
        {
          sort: fc
            .array(fc.tuple(column, fc.boolean()), { maxLength: 3 })
            .map((keys) => keys.map(([id, desc]) => `${id} ${desc ? 'desc' : 'asc'}`).join(', ')),
          filters: fc.dictionary(
            fc.constantFrom('n', 't', 'b', 'i'),
            fc.oneof(
              fc.integer({ min: 0, max: 5 }),
              fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }),
            ),
            { maxKeys: 2 },
          ),
          q: fc.option(fc.constantFrom('a', 'B', 'z a', 'ä'), { nil: undefined }),
          limit: fc.integer({ min: 0, max: 30 }),
          offset: fc.integer({ min: 0, max: 30 }),
        },
        { requiredKeys: ['sort', 'limit', 'offset'] },
      );
      let table = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(record, { maxLength: 40 }),
          fc.array(query, { minLength: 1, maxLength: 5 }),
          async (rows, queries) => {
            const resource = `random-${table++}`;
            await s.create(resource, fields, rows);
            const stored = rows.map((r, k) => ({ _id: k + 1, ...r }));
            for (const q of queries) {
              // The filters' numbers are read by each column's type: map them to values of it.
              const filters = Object.fromEntries(
                Object.entries(q.filters ?? {}).map(([id, v]) => {
                  const as = (x: number) =>
                    id === 'b'
                      ? x % 2 === 0
                      : id === 't'
                        ? ['a', 'b', 'B', 'ä', 'z', ''][x]
                        : id === 'n'
                          ? x / 4
                          : x;
                  return [id, Array.isArray(v) ? v.map(as) : as(v)];
                }),
              );
              const params: SearchParams = { resource_id: resource, ...q, filters };
              const actual = await s.search(params);
              const expected = referenceSearch(stored, fields, params);
              assert.deepEqual(
                { records: actual.records, total: actual.total },
                expected,
                JSON.stringify(params),
              );
            }
            await s.delete(resource);
          },
        ),
        { numRuns: 40 },
      );
    });

    bucketCases(open);
  });
}
