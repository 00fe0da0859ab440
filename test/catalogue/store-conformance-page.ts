// The catalogue store conformance suite, part four: the dataset page's composite read
// (datasetPage) answers what the separate reads answer, on every store.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { finishStep, queueStep, startStep } from '../../lib/chain/status.ts';
import type { DeadLetter } from '../../lib/chain/dead-letters.ts';
import { freshStore, type CatalogueEnvironment } from './store-conformance.ts';

export function pageConformance(env: CatalogueEnvironment): void {
  describe(`Catalogue store conformance, the dataset page: ${env.name}`, () => {
    const t = freshStore(env);

    test('datasetPage: the dataset, its resources in order, step statuses, dead letters and makers in one read', async () => {
      const { store } = t;
      const ada = await store.createUser({ name: 'ada' });
      const bob = await store.createUser({ name: 'bob' });
      await store.createUser({ name: 'carl' }); // made nothing: not among the makers
      const d = await store.createDataset({ name: 'tensile', creator_user_id: ada.id });
      const other = await store.createDataset({ name: 'other' });
      const a = await store.createResource(d.id, { name: 'a.csv', creator_user_id: ada.id });
      const b = await store.createResource(d.id, { name: 'b.csv', creator_user_id: bob.id });
      await store.createResource(d.id, { name: 'link' });
      const elsewhere = await store.createResource(other.id, { name: 'x.csv', creator_user_id: ada.id });
      const at = '2026-01-01T00:00:00.000Z';
      for (const [r, pkg] of [
        [a, d],
        [b, d],
        [elsewhere, other],
      ] as const)
        await store.putStepStatus({
          source_resource_id: r.id,
          package_id: pkg.id,
          status: queueStep(undefined, { step: 'annotate', run: 'r1', at }),
        });
      const letter = (id: string, package_id: string): DeadLetter => ({
        id,
        package_id,
        source_resource_id: a.id,
        run: 'r1',
        group: 'chain-annotate',
        topic: 'labld.chain.uploaded',
        error: 'TypeError: x',
        attempts: 1,
        failed_at: at,
        key: package_id,
        payload: { dataset_id: package_id, resource_id: a.id, run: 'r1' },
      });
      await store.addDeadLetter(letter('dlq/0/1', d.id));
      await store.addDeadLetter(letter('dlq/0/2', other.id));

      const page = await store.datasetPage('tensile');
      assert.ok(page);
      assert.deepEqual(page.dataset, await store.getDataset(d.id));
      assert.deepEqual(page.resources, await store.listResources(d.id));
      const byResource = (rows: { source_resource_id: string }[]) =>
        rows.map((row) => row.source_resource_id).sort();
      assert.deepEqual(byResource(page.steps), [a.id, b.id].sort());
      assert.deepEqual(
        page.steps.map((row) => row.status).sort(),
        (await store.listStepStatus({ package_id: d.id })).map((row) => row.status).sort(),
      );
      assert.deepEqual(page.deadLetters, await store.listDeadLetters({ package_id: d.id }));
      assert.deepEqual(page.makers, { [ada.id]: 'ada', [bob.id]: 'bob' });
      assert.deepEqual((await store.datasetPage(d.id))?.dataset.name, 'tensile', 'by id too');
      assert.equal(await store.datasetPage('nothing'), undefined);
      const empty = await store.datasetPage('other');
      assert.deepEqual([empty?.resources.length, empty?.makers], [1, { [ada.id]: 'ada' }]);
    });

    test("a chain step's facet (pipeline.ts): its done outcomes counted per dataset, and searchable", async () => {
      const { store } = t;
      const at = '2026-01-01T00:00:00.000Z';
      const outcomes: [string, string[]][] = [
        ['good', ['conforms']],
        ['bad', ['conforms', 'nonconforming']],
        ['unshaped', ['unchecked']],
      ];
      for (const [name, each] of outcomes) {
        const d = await store.createDataset({ name });
        for (const [i, outcome] of each.entries()) {
          const r = await store.createResource(d.id, { name: `${i}.csv` });
          const running = startStep(queueStep(undefined, { step: 'validate', run: 'r1', at }), 'r1', at);
          const status = finishStep(running, 'r1', at, { durationMs: 1, outcome });
          await store.putStepStatus({ source_resource_id: r.id, package_id: d.id, status });
        }
      }
      const found = await store.searchDatasets({ facets: { fields: ['shacl'], limit: 10, mincount: 1 } });
      assert.deepEqual(
        found.facets?.shacl?.map((f) => [f.name, f.count]),
        [
          ['conforms', 2],
          ['nonconforming', 1],
          ['unchecked', 1],
        ],
      );
      const failing = await store.searchDatasets({
        where: { field: 'shacl', value: 'nonconforming', match: 'word' },
      });
      assert.deepEqual(
        failing.results.map((d) => d.name),
        ['bad'],
      );
    });
  });
}
