// The preview's pages by design, seen in the statements the store runs (the embedded store;
// PostgreSQL runs the same SqlDatastore code, and the conformance suites check the answers on
// both): a filtered total is counted once while the table is unchanged, and again after each
// write; a page past the middle is read from the other end, with the same rows; the indexes
// a page reads are made after the import, not at its first search.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedDatastore } from '../../lib/datastore/embedded.ts';
import type { Datastore } from '../../lib/datastore/contract.ts';
import type { SqlClient } from '../../lib/datastore/sql-dialect.ts';

const ROWS = 300;
const rows = Array.from({ length: ROWS }, (_, i) => ({
  kind: ['a', 'b', 'c'][i % 3],
  n: i % 7 === 0 ? null : (i * 37) % 101, // ties and nulls: `_id` decides
}));
const FIELDS = [
  { id: 'kind', type: 'text' as const },
  { id: 'n', type: 'numeric' as const },
];

describe('datastore preview pages (embedded)', () => {
  let dir: string;
  let store: Datastore;
  const statements: { sql: string; params: unknown[] }[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'labld-preview-'));
    store = await openEmbeddedDatastore(join(dir, 'datastore.sqlite'));
    // The store's own client, watched: which statements a search runs.
    const client = (store as unknown as { client: SqlClient }).client;
    const query = client.query.bind(client);
    client.query = (sql, params = []) => {
      statements.push({ sql, params });
      return query(sql, params);
    };
    const run = client.run.bind(client);
    client.run = (sql, params = []) => {
      statements.push({ sql, params });
      return run(sql, params);
    };
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const counts = () =>
    statements.filter((s) => s.sql.startsWith('SELECT count(*)') && s.sql.includes(' WHERE ')).length;

  it('counts a filtered total once while the table is unchanged, and again after each write', async () => {
    await store.create('pages', FIELDS, rows);
    const search = () =>
      store.search({ resource_id: 'pages', filters: { kind: 'b' }, sort: 'n desc', limit: 5 });
    const before = counts();
    assert.equal((await search()).total, 100);
    assert.equal((await search()).total, 100);
    assert.equal(
      (await store.search({ resource_id: 'pages', filters: { kind: 'b' }, offset: 50 })).total,
      100,
    );
    assert.equal(counts() - before, 1);
    await store.upsert('pages', [{ kind: 'b', n: 1000 }], 'insert');
    assert.equal((await search()).total, 101);
    await store.delete('pages', { kind: 'b', n: 1000 });
    assert.equal((await search()).total, 100);
    assert.equal(counts() - before, 3);
    // The table made again under the same resource: its own total, not the old one's.
    await store.delete('pages');
    await store.create('pages', FIELDS, rows.slice(0, 30));
    assert.equal((await search()).total, 10);
  });

  it('reads a page past the middle from the other end: the same rows as read forwards', async () => {
    await store.delete('pages');
    await store.create('pages', FIELDS, rows);
    for (const sort of ['n desc', 'n asc', 'kind asc, n desc', undefined]) {
      const all = await store.search({ resource_id: 'pages', ...(sort ? { sort } : {}), limit: ROWS });
      for (const offset of [149, 150, 151, 250, 295, 299, 300, 310]) {
        statements.length = 0;
        const page = await store.search({
          resource_id: 'pages',
          ...(sort ? { sort } : {}),
          offset,
          limit: 10,
        });
        assert.deepEqual(page.records, all.records.slice(offset, offset + 10), `${sort} ${offset}`);
        const read = statements.find((s) => s.sql.includes(' OFFSET '));
        // Its OFFSET counts rows after the page, not the rows before it.
        if (offset > 150 && offset < ROWS)
          assert.ok((read?.params.at(-1) as number) < ROWS - offset, `${sort} ${offset}`);
      }
    }
  });

  it('makes the indexes of the preview after an import: no page then waits for one', async () => {
    await store.delete('pages');
    await store.create('pages', FIELDS, rows);
    await store.indexForPreview('pages');
    statements.length = 0;
    for (const sort of ['n desc', 'kind asc', 'n asc']) {
      await store.search({ resource_id: 'pages', filters: { kind: 'c' }, sort, limit: 10 });
    }
    assert.deepEqual(
      statements.filter((s) => s.sql.startsWith('CREATE INDEX')).map((s) => s.sql),
      [],
    );
    // A filter matching a third of the rows: the page is read off the sort's index (the first
    // rows in order that pass), not by the filter's index and a sort of all its matches.
    const page = statements.findLast((s) => s.sql.includes(' OFFSET ')) as (typeof statements)[number];
    const client = (store as unknown as { client: SqlClient }).client;
    const plan = await client.query(`EXPLAIN QUERY PLAN ${page.sql}`, page.params);
    const steps = plan.map((row) => String(row.detail)).join('\n');
    assert.match(steps, /_order/, steps);
    assert.doesNotMatch(steps, /TEMP B-TREE FOR ORDER BY/, steps);
  });
});
