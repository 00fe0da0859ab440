// Property, per datastore action of issue 26 (datastore_search_sql, datastore_info,
// datastore_upsert, datastore_search's records_format and distinct): random bodies answer or
// are refused with a CKAN 4xx whose error names a field — never another error (a 500). SQL is
// drawn from tokens of statements, hostile ones among them; after every statement the tables'
// checksums are as before.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from '../../support/fc.ts';
import { ckanError } from '../../../gateways/kit/ckan-errors.ts';
import { runAction } from '../../../lib/catalogue/actions/index.ts';
import type { WireCredential } from '../../../lib/contracts/catalogue.ts';
import { isDomainError } from '../../../lib/process/errors.ts';
import { datasetWithResource, person, type Catalogue, type Person } from './support.ts';

const FIELDS = [
  { id: 'name', type: 'text' },
  { id: 'force', type: 'numeric' },
  { id: 'run', type: 'int' },
];

export function datastorePropertySuite(name: string, fresh: () => Promise<Catalogue>): void {
  describe(`datastore actions, random bodies: ${name}`, () => {
    let catalogue: Catalogue;
    let alice: Person;
    let table = '';
    const saved = { ...process.env };

    before(async () => {
      process.env.LABLD_DATASTORE_SQL_TIMEOUT_MS = '500';
      catalogue = await fresh();
      alice = await person(catalogue.deps.store, 'alice');
      table = await datasetWithResource(catalogue.deps.store, alice, 'prop');
      await catalogue.deps.datastore.create(
        table,
        FIELDS as never,
        Array.from({ length: 20 }, (_, i) => ({ name: `n${i % 5}`, force: i / 2, run: i })),
        ['run'],
      );
    });
    after(async () => {
      process.env = saved;
      await catalogue?.dispose();
    });

    const credential = (): WireCredential => ({ kind: 'token', hash: alice.tokenHash });

    /** Runs the call; a refusal must be a CKAN 4xx naming a field. */
    async function answersOrNames(action: string, params: Record<string, unknown>): Promise<void> {
      try {
        await runAction(catalogue.deps, credential(), action, params);
      } catch (error) {
        assert.ok(isDomainError(error), `${action} ${JSON.stringify(params)}: ${String(error)}`);
        const { status } = ckanError(error);
        assert.ok(status >= 400 && status < 500, `${action}: ${status} ${error.detail}`);
        assert.ok(error.field, `${action}: no field named in ${JSON.stringify(error.detail)}`);
      }
    }

    const anyValue = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(
        'lists',
        'csv',
        'tsv',
        'objects',
        'insert',
        'update',
        'upsert',
        'name',
        'run',
        'true',
        '',
      ),
      fc.constant(null).map(() => table),
      fc.constant([{ name: 'x', run: 3 }]),
      fc.constant([{ run: 99, force: 'x' }]),
      fc.constant([{ _id: 1, name: 'y' }]),
    );
    const body = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: 5 });
    const withTable = (keys: string[]) =>
      fc
        .tuple(body(keys), fc.boolean())
        .map(([params, named]) => (named ? { ...params, resource_id: table } : params));

    test('datastore_search with records_format and distinct', async () => {
      const keys = [
        'records_format',
        'distinct',
        'fields',
        'sort',
        'limit',
        'offset',
        'filters',
        'q',
        'include_total',
      ];
      await fc.assert(
        fc.asyncProperty(withTable(keys), (params) => answersOrNames('datastore_search', params)),
        { numRuns: 150 },
      );
    });

    test('datastore_info', async () => {
      await fc.assert(
        fc.asyncProperty(withTable(['id', 'resource_id']), (params) =>
          answersOrNames('datastore_info', params),
        ),
        { numRuns: 100 },
      );
    });

    test('datastore_upsert', async () => {
      await fc.assert(
        fc.asyncProperty(withTable(['method', 'records', 'dry_run', 'force']), (params) =>
          answersOrNames('datastore_upsert', params),
        ),
        { numRuns: 150 },
      );
    });

    test('datastore_search_sql: random statements, no table changed', async () => {
      const tokens = fc.constantFrom(
        'SELECT',
        '*',
        'FROM',
        'WHERE',
        'name',
        'force',
        '_id',
        '=',
        '>',
        "'x'",
        "';'",
        ';',
        'DELETE',
        'DROP',
        'TABLE',
        'INSERT',
        'INTO',
        'UPDATE',
        'SET',
        '--',
        '/*',
        '*/',
        '(',
        ')',
        ',',
        'count(*)',
        'max(force)',
        "pg_read_file('/etc/passwd')",
        'pg_sleep(1)',
        '$$',
        '\\',
        '"',
        "'",
        'UNION',
        'JOIN',
        'ON',
        'true',
        '1',
        'ORDER BY',
        'GROUP BY',
        'LIMIT',
        'a',
        'b',
        'sqlite_master',
        'datastore_tables',
        'WITH',
        'AS',
        'PRAGMA',
        'ATTACH',
      );
      const column = fc.constantFrom('name', 'force', 'run', '_id', 'nope', '"name"', 'a.name', '*');
      const expression = fc.oneof(
        column,
        fc.constantFrom('count(*)', 'max(force)', 'lower(name)', 'force / 0', 'cast(name AS int)', 'run + 1'),
        fc.constantFrom("pg_read_file('/etc/passwd')", 'random()', "readfile('x')", 'abs(force)'),
      );
      const from = fc.oneof(
        fc.constant(null).map(() => `"${table}"`),
        fc.constant(null).map(() => `"${table}" a JOIN "${table}" b ON a._id = b._id`),
        fc.constantFrom('"no-such-table"', 'datastore_tables', 'sqlite_master', 'pg_user'),
      );
      const shaped = fc
        .record({
          columns: fc.array(expression, { minLength: 1, maxLength: 3 }),
          from,
          where: fc.option(
            fc.tuple(
              column,
              fc.constantFrom('=', '>', 'LIKE', '<>'),
              fc.constantFrom("'n1'", '3', 'NULL', "'x;y'"),
            ),
          ),
          order: fc.option(column),
          limit: fc.option(fc.integer({ min: -1, max: 50 })),
        })
        .map(
          ({ columns, from, where, order, limit }) =>
            `SELECT ${columns.join(', ')} FROM ${from}${where ? ` WHERE ${where.join(' ')}` : ''}${order ? ` ORDER BY ${order}` : ''}${limit === null ? '' : ` LIMIT ${limit}`}`,
        );
      const statement = fc.oneof(
        shaped,
        fc
          .array(
            fc.oneof(
              tokens,
              fc.constant(null).map(() => `"${table}"`),
            ),
            { minLength: 1, maxLength: 14 },
          )
          .map((t) => t.join(' ')),
        fc.string({ maxLength: 60 }),
      );
      const before = await catalogue.tables();
      await fc.assert(
        fc.asyncProperty(statement, (sql) => answersOrNames('datastore_search_sql', { sql })),
        { numRuns: 300 },
      );
      const unchanged = (sums: Record<string, string>) =>
        Object.fromEntries(Object.entries(sums).filter(([n]) => !n.endsWith('/api_tokens')));
      assert.deepEqual(unchanged(await catalogue.tables()), unchanged(before));
    });
  });
}
