// A chain step's work as the worker threads run it (consumers/chain-operations.ts): read from
// the worker's own stores, output stored as the derived resource of (source, step), the next
// step's event returned for the main thread to publish.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { lazyStores, type OperationStores } from '../../consumers/stores.ts';
import { CHAIN_OPERATION, operationsFor } from '../../consumers/chain-operations.ts';
import type { StepResult } from '../../consumers/chain.ts';
import { embeddedCatalogue, type Catalogue } from '../catalogue/actions/support.ts';
import { seedFixture } from '../support/shared.ts';

let catalogue: Catalogue;
let stores: OperationStores;

before(async () => {
  catalogue = await embeddedCatalogue();
  stores = lazyStores(catalogue.dataDir, { LABLD_DATABASE_URL: '' });
});
after(async () => {
  await stores.close();
  await catalogue.dispose();
});

test('annotate in a worker: the descriptor stored once however often it runs, the import event returned', async () => {
  const { store, blobs } = catalogue.deps;
  const dataset = await store.createDataset({ name: 'worker-step' });
  const blob = await blobs.putBytes(readFileSync(seedFixture('csvtocsvw/example.csv')));
  const csv = await store.createResource(dataset.id, {
    name: 'example.csv',
    url: 'example.csv',
    url_type: 'upload',
    blob_key: blob,
    hash: blob,
  });
  const env = { blobs: blobStoreIn(catalogue.dataDir), stores };
  const work = operationsFor('chain-annotate', env)[CHAIN_OPERATION]!;
  const event = { dataset_id: dataset.id, resource_id: csv.id, run: 'r1' };
  const signal = new AbortController().signal;
  for (let i = 0; i < 2; i++) {
    const result = (await work({ event } as never, { correlationId: undefined, signal })) as StepResult;
    assert.deepEqual(result.next, { step: 'import', group: 'chain-import', event });
    assert.match(result.summary.note ?? '', /1 table\(s\)/);
  }
  const derived = (await store.listResources(dataset.id)).filter((r) => r.derivation !== null);
  assert.deepEqual(
    derived.map((r) => [r.name, r.format, r.derivation?.step]),
    [['example-metadata.jsonld', 'json-ld', 'annotate']],
  );
  assert.deepEqual(operationsFor('chain-forget', env), {}, 'chain-forget has no work for a worker');
});
