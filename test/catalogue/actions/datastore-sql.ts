// datastore_search_sql on either store: what a reader may ask works, and hostile statements —
// writes, schema changes, other databases, settings, files, other users' and the system's
// tables, several statements, comment and quoting tricks, sleeps and huge products — are each
// refused with a 4xx naming the reason, every table of both databases unchanged after (a
// checksum of each table's rows before and after). Expected rows are written from the data
// made here, not computed by the code under test.
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ckanError } from '../../../gateways/kit/ckan-errors.ts';
import { runAction } from '../../../lib/catalogue/actions/index.ts';
import { DomainError } from '../../../lib/process/errors.ts';
import {
  datasetWithResource,
  FORTY_FIELDS,
  FORTY_ROWS,
  person,
  type Catalogue,
  type Person,
} from './support.ts';

const ROWS = FORTY_ROWS;
const FIELDS = FORTY_FIELDS;

const EVIL_FILE = '/tmp/labld-sql-hostile-evil.db';

/** The statements, with `R` the caller's public table and `S` another user's private one. */
function hostile(R: string, S: string, realTable: string): [string, string][] {
  const r = `"${R}"`;
  const s = `"${S}"`;
  return [
    ['delete', `DELETE FROM ${r}`],
    ['update', `UPDATE ${r} SET name = 'x'`],
    ['insert', `INSERT INTO ${r} (name) VALUES ('x')`],
    ['drop', `DROP TABLE ${r}`],
    ['create', 'CREATE TABLE evil (x int)'],
    ['alter', `ALTER TABLE ${r} ADD COLUMN y int`],
    ['truncate', `TRUNCATE ${r}`],
    ['attach', `ATTACH DATABASE '${EVIL_FILE}' AS evil`],
    ['pragma', 'PRAGMA writable_schema = 1'],
    ['pragma in select', "SELECT * FROM pragma_table_info('datastore_tables')"],
    ['vacuum into', `VACUUM INTO '${EVIL_FILE}'`],
    ['private table', `SELECT * FROM ${s}`],
    ['private table in a join', `SELECT * FROM ${r} JOIN ${s} ON true`],
    ['private table in a subquery', `SELECT * FROM ${r} WHERE _id IN (SELECT _id FROM ${s})`],
    ['private table in a union', `SELECT name FROM ${r} UNION SELECT name FROM ${s}`],
    ['the datastore catalogue', 'SELECT * FROM datastore_tables'],
    ['a real table name', `SELECT * FROM "${realTable}"`],
    ['sqlite_master', 'SELECT * FROM sqlite_master'],
    ['pg_user', 'SELECT * FROM pg_catalog.pg_user'],
    ['information_schema', 'SELECT * FROM information_schema.tables'],
    ['schema-qualified resource', `SELECT * FROM main.${r}`],
    ['pg_read_file', "SELECT pg_read_file('/etc/passwd')"],
    ['lo_import', "SELECT lo_import('/etc/passwd')"],
    ['load_extension', "SELECT load_extension('/tmp/evil.so')"],
    ['readfile', "SELECT readfile('/etc/passwd')"],
    ['copy to', `COPY ${r} TO '/tmp/labld-out.csv'`],
    ['copy from program', "COPY evil FROM PROGRAM 'id'"],
    ['set_config', "SELECT set_config('default_transaction_read_only', 'off', false)"],
    ['current_setting', "SELECT current_setting('data_directory')"],
    ['set', 'SET statement_timeout = 0'],
    ['dblink', "SELECT * FROM dblink('host=x', 'select 1') AS t(a int)"],
    ['two statements', `SELECT 1; DELETE FROM ${r}`],
    ['a statement after a comment', `SELECT * FROM ${r} /* ; */ ; DROP TABLE ${r}`],
    ['a line comment', `SELECT * FROM ${r} -- a comment\n; DELETE FROM ${r}`],
    ['comment hiding the rest', `SELECT * FROM ${r} /* DELETE FROM ${r} */; DELETE FROM ${r}`],
    ['semicolon in a string', `SELECT 'a;b'; DELETE FROM ${r}`],
    ['nested quoting', `SELECT "na""me" FROM ${r}; DROP TABLE ${r}`],
    ['backslash in a string', `SELECT * FROM ${r} WHERE name = '\\'; DELETE FROM ${r}; --'`],
    ['escape string', `SELECT * FROM ${r} WHERE name = E'\\'; DELETE FROM ${r}; --'`],
    ['dollar quoting', `SELECT $$; DELETE FROM ${r}; $$`],
    ['dollar quoting with a tag', `SELECT $x$ a $x$ FROM ${r}`],
    ['a writing CTE', `WITH x AS (DELETE FROM ${r} RETURNING *) SELECT * FROM x`],
    ['select into', `SELECT * INTO evil FROM ${r}`],
    ['for update', `SELECT * FROM ${r} FOR UPDATE`],
    ['explain analyze', `EXPLAIN ANALYZE DELETE FROM ${r}`],
    ['pg_sleep', 'SELECT pg_sleep(30)'],
    ['generate_series', 'SELECT * FROM generate_series(1, 100000000)'],
    ['version', 'SELECT version()'],
    ['a cast that reads the catalogue', "SELECT 'pg_authid'::regclass"],
    ['a cast to a system type', `SELECT CAST(name AS regproc) FROM ${r}`],
    ['a parameter', `SELECT * FROM ${r} WHERE _id = $1`],
    [
      'a product past the time limit',
      `SELECT count(*) FROM ${r} a, ${r} b, ${r} c, ${r} d, ${r} e, ${r} f, ${r} g`,
    ],
    ['begin', 'BEGIN'],
    // The parser's exponential backtracking (seconds from depth 10), bounded before it runs.
    ['a syntax error deep in parentheses', `SELECT ${'('.repeat(16)}name +${')'.repeat(16)} FROM ${r}`],
    ['a long text', `SELECT name FROM ${r} WHERE ${Array(2000).fill('_id = 1').join(' OR ')}`],
    ['grant', `GRANT ALL ON ${r} TO public`],
    ['call', 'CALL evil()'],
    ['do block', 'DO $$ BEGIN PERFORM pg_sleep(10); END $$'],
  ];
}

export function datastoreSqlSuite(name: string, fresh: () => Promise<Catalogue>): void {
  describe(`datastore_search_sql: ${name}`, () => {
    let catalogue: Catalogue;
    let owner: Person;
    let caller: Person;
    let R: string;
    let S: string;
    const saved = { ...process.env };

    before(async () => {
      process.env.LABLD_DATASTORE_SQL_TIMEOUT_MS = '1500';
      process.env.LABLD_DATASTORE_ROWS_MAX = '100';
      catalogue = await fresh();
      const { store, datastore } = catalogue.deps;
      owner = await person(store, 'owner');
      caller = await person(store, 'caller');
      R = await datasetWithResource(store, owner, 'open-set');
      S = await datasetWithResource(store, owner, 'closed-set', 'private');
      await datastore.create(R, FIELDS as never, ROWS);
      await datastore.create(S, FIELDS as never, [{ name: 'secret', value: 42, kind: 'hidden' }]);
    });
    after(async () => {
      process.env = saved;
      await catalogue?.dispose();
    });

    const ask = (sql: string, who: Person | undefined = caller) =>
      runAction(
        catalogue.deps,
        who ? { kind: 'token', hash: who.tokenHash } : { kind: 'anonymous' },
        'datastore_search_sql',
        { sql },
      ) as Promise<{
        fields: { id: string; type: string }[];
        records: Record<string, unknown>[];
        records_truncated?: boolean;
      }>;

    it('answers a reader’s SELECT with CKAN’s fields and records', async () => {
      const found = await ask(
        `SELECT name, value FROM "${R}" WHERE kind = 'even' AND value > 50 ORDER BY value DESC LIMIT 3`,
        undefined,
      );
      assert.deepEqual(
        found.fields.map((f) => f.id),
        ['name', 'value'],
      );
      assert.deepEqual(found.records, [
        { name: 'n40', value: 60 },
        { name: 'n38', value: 57 },
        { name: 'n36', value: 54 },
      ]);
      const cast = await ask(`SELECT CAST(value AS int) AS v, name::text AS t FROM "${R}" WHERE _id = 2`);
      assert.deepEqual(cast.records, [{ v: 3, t: 'n2' }]);
      const grouped = await ask(
        `SELECT kind, count(*) AS n, max(_id) AS top FROM "${R}" GROUP BY kind ORDER BY kind`,
      );
      assert.deepEqual(
        grouped.records.map((r) => [r.kind, Number(r.n), Number(r.top)]),
        [
          ['even', 20, 40],
          ['odd', 20, 39],
        ],
      );
      // The owner reads the private table, and joins both.
      const joined = await ask(`SELECT s.name FROM "${R}" r JOIN "${S}" s ON r.value = s.value`, owner);
      assert.deepEqual(joined.records, [{ name: 'secret' }]);
    });

    it('cuts a large answer at rows_max with records_truncated, as CKAN', async () => {
      const found = await ask(`SELECT a.name, b.name AS other FROM "${R}" a, "${R}" b, "${R}" c`);
      assert.equal(found.records.length, 100);
      assert.equal(found.records_truncated, true);
    });

    /** Every table's checksum but the tokens': using a token stamps its last use. */
    const tables = async () =>
      Object.fromEntries(
        Object.entries(await catalogue.tables()).filter(([name]) => !name.endsWith('/api_tokens')),
      );

    it('refuses each hostile statement with a 4xx naming the reason; every table is unchanged', async () => {
      rmSync(EVIL_FILE, { force: true });
      // The action exists and answers: a refusal below is the statement's, not a missing action's.
      assert.equal((await ask(`SELECT count(*) AS n FROM "${R}"`)).records.length, 1);
      const before = await tables();
      const realTable = Object.keys(before)
        .map((key) => key.split('/')[1]!)
        .find((t) => t.startsWith('ds_'))!;
      const cases = hostile(R, S, realTable);
      assert.ok(cases.length >= 30);
      for (const [label, sql] of cases) {
        const error = await ask(sql).then(
          (answer) => assert.fail(`${label}: answered ${JSON.stringify(answer).slice(0, 200)}`),
          (e: unknown) => e,
        );
        assert.ok(error instanceof DomainError, `${label}: ${String(error)}`);
        const { status, body } = ckanError(error);
        assert.ok(status >= 400 && status < 500, `${label}: ${status} ${error.detail}`);
        assert.ok(error.detail.length > 10, `${label}: ${error.detail}`);
        assert.ok(JSON.stringify(body.error).length > 20, label);
      }
      assert.deepEqual(await tables(), before);
      assert.equal(existsSync(EVIL_FILE), false);
    });

    it('names the reason: a write, a function, a table, several statements, the time', async () => {
      const detail = async (sql: string) =>
        ask(sql).then(
          () => assert.fail(sql),
          (e: DomainError) => `${ckanError(e).status} ${e.detail}`,
        );
      assert.match(await detail(`DELETE FROM "${R}"`), /^409 .*only SELECT/);
      assert.match(await detail("SELECT pg_read_file('/etc/passwd')"), /^403 .*pg_read_file/);
      assert.match(await detail(`SELECT * FROM "${S}"`), /^404 .*resource not found/);
      assert.match(await detail('SELECT * FROM datastore_tables'), /^404 /);
      assert.match(await detail(`SELECT 1; SELECT 2`), /^409 .*one statement/);
      assert.match(
        await detail(
          `SELECT count(*) FROM "${R}" a, "${R}" b, "${R}" c, "${R}" d, "${R}" e, "${R}" f, "${R}" g`,
        ),
        /^409 .*took longer than 1500 ms/,
      );
    });
  });
}
