// labld_resource_page on either store: the resource page's one request answers what the seven
// calls it replaced answer (package_show, labld_dataset_permissions, labld_resource_download,
// labld_status_show of the source, the maker's name, datastore_info's fields, datastore_search's
// page of rows), the page's sort, filters and ranges give the rows written out here, and a
// refusal names the page's parameter; a hidden dataset is not found, as a missing one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAction } from '../../../lib/catalogue/actions/index.ts';
import { finishStep, queueStep, startStep } from '../../../lib/chain/index.ts';
import { DomainError } from '../../../lib/process/errors.ts';
import { FORTY_FIELDS, FORTY_ROWS, person, type Catalogue, type Person } from './support.ts';

type Dict = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROWS = FORTY_ROWS;
/** The table's fields, its number column with a unit (datastore_info gives it back). */
const FIELDS = FORTY_FIELDS.map((f) =>
  f.id === 'value' ? { ...f, info: { unit: 'http://qudt.org/vocab/unit/N' } } : f,
);

export function resourcePageSuite(name: string, fresh: () => Promise<Catalogue>): void {
  describe(`labld_resource_page: ${name}`, () => {
    let catalogue: Catalogue;
    let owner: Person;
    let csv: string;
    let derived: string;
    let hidden: string;

    before(async () => {
      catalogue = await fresh();
      const { store, datastore } = catalogue.deps;
      owner = await person(store, 'owner');
      const d = await store.createDataset({ name: 'tensile', creator_user_id: owner.user.id });
      csv = (
        await store.createResource(d.id, {
          name: 'probe.csv',
          url: 'probe.csv',
          url_type: 'upload',
          blob_key: 'a'.repeat(64),
          mimetype: 'text/csv',
          size: 123,
          creator_user_id: owner.user.id,
        })
      ).id;
      derived = (
        await store.upsertDerived(
          { package_id: d.id, source_resource_id: csv, step: 'annotate' },
          { name: 'probe.csvw.json', url: 'https://example.org/probe.csvw.json' },
        )
      ).id;
      const queued = queueStep(undefined, { step: 'annotate', run: 'r1', at: '2026-01-01T00:00:00.000Z' });
      const done = finishStep(
        startStep(queued, 'r1', '2026-01-01T00:00:01.000Z'),
        'r1',
        '2026-01-01T00:00:02.000Z',
        { durationMs: 1000 },
      );
      await store.putStepStatus({ source_resource_id: csv, package_id: d.id, status: done });
      await datastore.create(csv, FIELDS as never, ROWS);
      const closed = await store.createDataset({
        name: 'closed',
        private: true,
        creator_user_id: owner.user.id,
      });
      hidden = (await store.createResource(closed.id, { name: 'x.csv', url: 'https://example.org/x.csv' }))
        .id;
    });
    after(() => catalogue?.dispose());

    /** null: a visitor. */
    const as = (who: Person | null) =>
      who ? ({ kind: 'token', hash: who.tokenHash } as const) : ({ kind: 'anonymous' } as const);
    const call = (action: string, params: Dict, who: Person | null = owner) =>
      runAction(catalogue.deps, as(who), action, params) as Promise<Dict>;
    const page = (params: Dict, who: Person | null = owner) => call('labld_resource_page', params, who);
    const names = (found: Dict) => (found.table.found.records as Dict[]).map((r) => r.name as string);

    it('answers what the page’s seven calls answered, in one', async () => {
      const table = { filters: {}, ranges: {}, page: 2 };
      const one = await page({ id: 'tensile', resource_id: csv, table });
      assert.deepEqual(one.package, await call('package_show', { id: 'tensile' }));
      assert.deepEqual(one.permissions, await call('labld_dataset_permissions', { id: 'tensile' }));
      assert.deepEqual(one.file, await call('labld_resource_download', { id: csv }));
      assert.deepEqual(one.status, await call('labld_status_show', { resource_id: csv }));
      assert.deepEqual(one.makers, { [owner.user.id]: 'owner' });
      assert.deepEqual(one.table.fields, (await call('datastore_info', { id: csv })).fields.map(strip));
      const search = await call('datastore_search', { resource_id: csv, limit: 25, offset: 25 });
      assert.deepEqual(one.table.found.records, search.records);
      assert.equal(one.table.found.total, 40);
      assert.deepEqual(
        names(one),
        ROWS.slice(25).map((r) => r.name),
      );
    });

    it('shows a derived resource’s source steps, and no table without `table` or a table', async () => {
      const one = await page({
        id: 'tensile',
        resource_id: derived,
        table: { filters: {}, ranges: {}, page: 1 },
      });
      assert.deepEqual(one.status, await call('labld_status_show', { resource_id: csv }));
      assert.equal(one.table, null);
      assert.equal((await page({ id: 'tensile', resource_id: csv })).table, null);
    });

    it('sorts, filters words and numbers and bounds a range as the page asks', async () => {
      const one = await page({
        id: 'tensile',
        resource_id: csv,
        table: {
          sort: { column: 'value', order: 'desc' },
          filters: { kind: 'even' },
          ranges: { value: { min: '10', max: '30' } },
          page: 1,
        },
      });
      // Even i with 10 ≤ 1.5 i ≤ 30: i = 8 … 20, largest value first.
      assert.deepEqual(names(one), ['n20', 'n18', 'n16', 'n14', 'n12', 'n10', 'n8']);
      const exact = await page({
        id: 'tensile',
        resource_id: csv,
        table: { filters: { value: '9' }, ranges: {}, page: 1 },
      });
      assert.deepEqual(names(exact), ['n6']);
    });

    it('refuses naming the page’s parameter or `table`', async () => {
      const refusal = async (params: Dict, who: Person | null = owner) => {
        try {
          await page(params, who);
        } catch (error) {
          assert.ok(error instanceof DomainError, String(error));
          return [error.kind, error.field, error.message];
        }
        assert.fail(`answered: ${JSON.stringify(params)}`);
      };
      const t = (table: Dict) => ({
        id: 'tensile',
        resource_id: csv,
        table: { filters: {}, ranges: {}, page: 1, ...table },
      });
      assert.deepEqual((await refusal(t({ sort: { column: 'nothing', order: 'asc' } })))!.slice(0, 2), [
        'invalid',
        'sort',
      ]);
      assert.deepEqual((await refusal(t({ filters: { value: 'heavy' } })))!.slice(0, 2), [
        'invalid',
        'f.value',
      ]);
      assert.deepEqual((await refusal(t({ ranges: { kind: { min: '1' } } })))!.slice(0, 2), [
        'invalid',
        'min.kind',
      ]);
      assert.deepEqual((await refusal(t({ sort: { column: 'value', order: 'up' } })))!.slice(0, 2), [
        'invalid',
        'table',
      ]);
      assert.deepEqual((await refusal(t({ filters: { kind: 3 } })))!.slice(0, 2), ['invalid', 'table']);
      // The message names the column whose bounds are not text.
      assert.match((await refusal(t({ ranges: { value: { min: 1 } } })))![2]!, /^table\.ranges\.value: /);
      assert.deepEqual((await refusal(t({ page: 0 })))!.slice(0, 2), ['invalid', 'page']);
      assert.deepEqual((await refusal({ id: 'tensile', resource_id: hidden }))!.slice(0, 2), [
        'not-found',
        'resource_id',
      ]);
      // A private dataset to a visitor is not found, in the words of one that does not exist.
      const hiddenAnswer = await refusal({ id: 'closed', resource_id: hidden }, null);
      const missingAnswer = await refusal({ id: 'nowhere', resource_id: hidden }, null);
      assert.deepEqual(hiddenAnswer, ['not-found', 'id', 'dataset not found: closed']);
      assert.deepEqual(missingAnswer, ['not-found', 'id', 'dataset not found: nowhere']);
    });
  });
}

/** datastore_info's field without its `schema` (CKAN's addition, not the datastore's). */
function strip(field: Dict): Dict {
  const { schema: _, ...rest } = field;
  return rest;
}
