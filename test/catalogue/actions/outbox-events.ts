// What catalogue actions set off, kept in their own transaction (issue 27, "one road out"): the
// triple store's load or sync sits in the store's outbox beside the chain's events the moment
// the action returns, whoever called it, and the relay publishes it to the load topic keyed by
// the dataset; a refused action keeps nothing. Run on each store (outbox-events.test.ts,
// outbox-events.postgres.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runActionAs } from '../../../lib/catalogue/actions/index.ts';
import type { Viewer } from '../../../lib/catalogue/auth/actor.ts';
import { relayOnce } from '../../../consumers/outbox.ts';
import { catalog, recordingBus } from '../../chain/outbox-suite.ts';
import { person, refused, viewerOf, type Catalogue } from './support.ts';

export function outboxEventsSuite(name: string, open: () => Promise<Catalogue>): void {
  describe(`the triple store's events of catalogue actions: ${name}`, () => {
    let catalogue: Catalogue;
    let owner: Viewer;
    let reader: Viewer;
    before(async () => {
      catalogue = await open();
      const { store } = catalogue.deps;
      owner = await viewerOf(store, await person(store, 'owner'));
      reader = await viewerOf(store, await person(store, 'reader'));
    });
    after(() => catalogue.dispose());

    const act = (who: Viewer, action: string, params: Record<string, unknown>) =>
      runActionAs(catalogue.deps, who, action, params);

    /** The outbox's events since the last call, as [event, key, payload], emptied. */
    async function taken(): Promise<unknown[][]> {
      const { store } = catalogue.deps;
      const pending = await store.pendingEvents(100);
      await store.removeEvents(pending.map((e) => e.seq));
      return pending.map((e) => [e.event, e.key, e.payload]);
    }

    const sync = (id: string) => ['triplestore.load', id, { dataset_id: id, reason: 'sync' }];

    test('load, changes to resources and deletes keep their event; a refusal keeps none', async () => {
      const dataset = (await act(owner, 'package_create', { name: 'events' })) as { id: string };
      const made = (await act(owner, 'resource_create', {
        package_id: dataset.id,
        url: 'https://example.org/graph.ttl',
      })) as { id: string };
      await taken();

      const load = (await act(owner, 'triplestore_load', { id: 'events' })) as { run: string };
      assert.deepEqual(await taken(), [
        ['triplestore.load', dataset.id, { dataset_id: dataset.id, reason: 'load', rows: false }],
      ]);
      assert.equal(typeof load.run, 'string');

      await act(owner, 'resource_patch', { id: made.id, description: 'renamed' });
      assert.deepEqual(await taken(), [sync(dataset.id)]);
      await act(owner, 'resource_update', { id: made.id, url: 'https://example.org/other.ttl' });
      const updated = await taken();
      assert.deepEqual(updated.at(-1), sync(dataset.id));

      assert.equal((await refused(act(reader, 'resource_delete', { id: made.id }))).status, 403);
      assert.equal((await refused(act(reader, 'triplestore_load', { id: dataset.id }))).status, 403);
      assert.deepEqual(await taken(), []);

      await act(owner, 'resource_delete', { id: made.id });
      assert.deepEqual(
        (await taken()).map(([event, key]) => [event, key]),
        [
          ['resource.deleted', dataset.id],
          ['triplestore.load', dataset.id],
        ],
      );
      await act(owner, 'package_delete', { id: 'events' });
      assert.deepEqual(await taken(), [sync(dataset.id)]);
    });

    test("the relay publishes the triple store's event to the load topic, keyed by the dataset", async () => {
      const dataset = (await act(owner, 'package_create', { name: 'relayed' })) as { id: string };
      await taken();
      await act(owner, 'triplestore_load', { id: dataset.id, rows: false });
      const { bus, sent } = recordingBus();
      assert.equal(await relayOnce(bus, catalog, catalogue.deps.store), 1);
      assert.deepEqual(sent, [
        {
          topic: catalog.topicReadBy('load-triplestore').name,
          value: { dataset_id: dataset.id, reason: 'load', rows: false },
          key: dataset.id,
        },
      ]);
    });
  });
}
