// Wide tables through a whole labld (issue 25, finding 7): a 16,000-column CSV (under
// LABLD_MAX_COLUMNS) is uploaded, imported by the chain and previewed on its resource page;
// datastore_create takes 2,001 fields and refuses more than LABLD_MAX_COLUMNS naming `fields`.
// Run on the embedded stores (wide-table.e2e.test.ts) and on PostgreSQL (wide-table.postgres.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { maxColumns } from '../../lib/limits.ts';
import { api, importedTable, person, type Person } from './actions/support.ts';

/** A running labld; `databaseUrl` empty for the embedded stores. */
export interface WideLabld {
  url: string;
  dataDir: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

const WIDTH = 16_000;

export function wideTablesThroughLabld(name: string, start: () => Promise<WideLabld>): void {
  describe(`wide tables through labld (${name})`, () => {
    let labld: WideLabld;
    let alice: Person;
    const auth = () => ({ authorization: alice.token });

    before(async () => {
      labld = await start();
      const store = await openCatalogueStore({ dataDir: labld.dataDir, databaseUrl: labld.databaseUrl });
      alice = await person(store, 'alice');
      await store.close();
      const made = await api(labld.url, 'package_create', { body: { name: 'wide' }, headers: auth() });
      assert.equal(made.status, 200);
    });
    after(() => labld?.stop());

    test('a CSV of 16,000 columns is imported by the chain and its resource page previews it', async () => {
      const header = Array.from({ length: WIDTH }, (_, i) => `col${i}`).join(',');
      const rows = [1, 2, 3].map((r) => Array.from({ length: WIDTH }, (_, i) => r * 100000 + i).join(','));
      const form = new FormData();
      form.set('package_id', 'wide');
      form.set('upload', new Blob([`${header}\n${rows.join('\n')}\n`], { type: 'text/csv' }), 'wide.csv');
      const made = await api(labld.url, 'resource_create', { form, headers: auth() });
      assert.equal(made.status, 200, JSON.stringify(made.body.error));
      const id = made.body.result.id as string;
      // The table is made before its rows go in (one transaction): waited for until they are there.
      let table = await importedTable(labld.url, id, auth(), 240_000);
      for (let tries = 0; table.total < 3 && tries < 600; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        table = await importedTable(labld.url, id, auth());
      }
      assert.equal(table.total, 3);
      assert.equal(table.fields.length, WIDTH + 1);
      const last = `col${WIDTH - 1}`;
      assert.deepEqual(
        table.records.map((r: Record<string, unknown>) => r[last]),
        [100000 + WIDTH - 1, 200000 + WIDTH - 1, 300000 + WIDTH - 1],
      );
      // The preview sorted by the last column, largest first.
      const page = await fetch(`${labld.url}/dataset/wide/resource/${id}?sort=${last}&order=desc`, {
        headers: auth(),
      });
      const html = await page.text();
      assert.equal(page.status, 200, html.slice(0, 500));
      assert.ok(html.includes(`>${last}<`), 'the last column is in the preview');
      const first = html.indexOf(String(300000 + WIDTH - 1));
      const third = html.indexOf(String(100000 + WIDTH - 1));
      assert.ok(first > 0 && third > first, 'rows in the order of the last column, descending');
    });

    test('datastore_create with 2,001 fields answers 200; one more than LABLD_MAX_COLUMNS is a 4xx naming fields', async () => {
      const link = await api(labld.url, 'resource_create', {
        body: { package_id: 'wide', url: 'https://example.org/wide.csv', name: 'wide (link)' },
        headers: auth(),
      });
      assert.equal(link.status, 200);
      const rid = link.body.result.id as string;
      const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `f${i}`, type: 'numeric' }));
      const made = await api(labld.url, 'datastore_create', {
        body: { resource_id: rid, fields: fields(2001), records: [Object.fromEntries([['f2000', 7]])] },
        headers: auth(),
      });
      assert.equal(made.status, 200, JSON.stringify(made.body.error));
      const found = await api(labld.url, 'datastore_search', {
        query: { resource_id: rid, filters: JSON.stringify({ f2000: 7 }) },
        headers: auth(),
      });
      assert.equal(found.body.result.total, 1);

      const other = await api(labld.url, 'resource_create', {
        body: { package_id: 'wide', url: 'https://example.org/wider.csv', name: 'wider (link)' },
        headers: auth(),
      });
      const refused = await api(labld.url, 'datastore_create', {
        body: { resource_id: other.body.result.id, fields: fields(maxColumns() + 1) },
        headers: auth(),
      });
      assert.ok(refused.status >= 400 && refused.status < 500, `${refused.status}`);
      assert.ok(refused.body.error.fields, JSON.stringify(refused.body.error));
    });
  });
}
