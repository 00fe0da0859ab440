// The catalogue store conformance suite, part three: requests handled once. A request the bus
// delivers again answers what it answered and writes nothing; the id is kept with the writes,
// so a failed attempt keeps nothing and may run again (run by catalogueStoreConformance). A
// client's idempotency key is kept the same way: a retry under another request id answers the
// first answer until the key expires.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rejection } from '../support/client-error.ts';
import { freshStore, type CatalogueEnvironment } from './store-conformance.ts';

export function requestConformance(env: CatalogueEnvironment): void {
  describe(`Catalogue store conformance, requests handled once: ${env.name}`, () => {
    const t = freshStore(env);

    test('a repeated request id answers the first answer and writes nothing', async () => {
      let runs = 0;
      const create = (name: string) =>
        t.store.handleOnce({ id: 'req-1', operation: 'package_create' }, async (tx) => {
          runs += 1;
          const d = await tx.createDataset({ name });
          await tx.createResource(d.id, { name: 'a.csv', url: 'https://x.example/a.csv', url_type: 'link' });
          return { id: d.id, name: d.name, resources: 1 };
        });
      const first = await create('first');
      const again = await create('second');
      assert.deepEqual(again, first);
      assert.equal(runs, 1);
      assert.deepEqual(
        (await t.store.listDatasets({ includePrivateFor: 'all' })).map((d) => d.name),
        ['first'],
      );
      assert.equal((await t.store.listResources('first')).length, 1);
      // Another id is another request.
      const other = await t.store.handleOnce({ id: 'req-2', operation: 'package_create' }, (tx) =>
        tx.createDataset({ name: 'other' }).then((d) => d.name),
      );
      assert.equal(other, 'other');
    });

    test('an answer of undefined or null is kept as given', async () => {
      const nothing = () => t.store.handleOnce({ id: 'u', operation: 'x' }, async () => undefined);
      assert.equal(await nothing(), undefined);
      assert.equal(await nothing(), undefined);
      const none = () => t.store.handleOnce({ id: 'n', operation: 'x' }, async () => null);
      assert.equal(await none(), null);
      assert.equal(await none(), null);
    });

    test('work that fails keeps neither its writes nor the id: the next delivery runs it', async () => {
      const failed = await rejection(
        t.store.handleOnce({ id: 'req-f', operation: 'package_create' }, async (tx) => {
          await tx.createDataset({ name: 'half' });
          return tx.createDataset({ name: 'half' }); // taken: conflict
        }),
      );
      assert.deepEqual([failed.kind, failed.field], ['conflict', 'name']);
      assert.equal(await t.store.getDataset('half'), undefined);
      const retried = await t.store.handleOnce({ id: 'req-f', operation: 'package_create' }, (tx) =>
        tx.createDataset({ name: 'half' }).then((d) => d.name),
      );
      assert.equal(retried, 'half');
    });

    test('forgets requests handled before a time: a repeat of one runs again, newer ones stay', async () => {
      let runs = 0;
      const handle = (id: string) =>
        t.store.handleOnce({ id, operation: 'group_create' }, async () => {
          runs += 1;
          return runs;
        });
      assert.equal(await handle('old'), 1);
      assert.equal(await t.store.forgetHandledRequests(new Date(Date.now() - 3600_000)), 0);
      assert.equal(await handle('old'), 1, 'an hour-old cut-off keeps it');
      assert.equal(await t.store.forgetHandledRequests(new Date(Date.now() + 1000)), 1);
      assert.equal(await handle('old'), 2, 'forgotten: it runs again');
      assert.equal(await handle('old'), 2);
    });

    test('the same id for another operation is a conflict; a bad id is invalid', async () => {
      await t.store.handleOnce({ id: 'req-o', operation: 'group_create' }, async () => 1);
      const other = await rejection(
        t.store.handleOnce({ id: 'req-o', operation: 'package_delete' }, async () => 2),
      );
      assert.deepEqual([other.kind, other.field], ['conflict', 'request_id']);
      for (const id of ['', 'x'.repeat(201)]) {
        const bad = await rejection(t.store.handleOnce({ id, operation: 'x' }, async () => 3));
        assert.deepEqual([bad.kind, bad.field], ['invalid', 'request_id']);
      }
    });

    const later = (ms: number) => new Date(Date.now() + ms);
    /** Delivers a resource upload as request `id` with idempotency key `key`; counts the runs. */
    function uploads(key = 'k1') {
      let runs = 0;
      const send = (id: string, fingerprint = 'f1', expires = later(60_000), store = t.store) =>
        store.handleOnce(
          { id, operation: 'resource_create', idempotency: { key, fingerprint, expires } },
          async (tx) => {
            runs += 1;
            const d = (await tx.getDataset('up')) ?? (await tx.createDataset({ name: 'up' }));
            const r = await tx.createResource(d.id, { name: 'a.csv', url: 'a.csv', url_type: 'upload' });
            return { id: r.id };
          },
        );
      return {
        send,
        get runs() {
          return runs;
        },
      };
    }
    const resourceCount = async () =>
      (await t.store.getDataset('up')) ? (await t.store.listResources('up')).length : 0;

    test('idempotency key: a retry under another request id answers the first answer and writes nothing', async () => {
      const u = uploads();
      const first = await u.send('req-a');
      assert.deepEqual(await u.send('req-b'), first);
      assert.deepEqual(await u.send('req-a'), first, 'the first id again too');
      assert.equal(u.runs, 1);
      assert.equal(await resourceCount(), 1);
      // Another key is another upload.
      assert.notDeepEqual(await uploads('k2').send('req-c'), first);
      assert.equal(await resourceCount(), 2);
    });

    test('idempotency key: kept in the database, found by a store opened anew (as after a restart)', async () => {
      const u = uploads();
      const first = await u.send('req-a');
      const reopened = await t.ns.connect();
      assert.deepEqual(await u.send('req-b', 'f1', later(60_000), reopened), first);
      assert.equal(u.runs, 1);
      assert.equal(await resourceCount(), 1);
    });

    test('idempotency key: with another fingerprint a conflict naming Idempotency-Key, which writes nothing', async () => {
      const u = uploads();
      await u.send('req-a');
      const other = await rejection(u.send('req-b', 'f2'));
      assert.deepEqual([other.kind, other.field], ['conflict', 'Idempotency-Key']);
      assert.match(other.message, /used for another request/);
      assert.equal(u.runs, 1);
      assert.equal(await resourceCount(), 1);
    });

    test('idempotency key: work that fails keeps no key; an expired key runs again and is forgotten', async () => {
      const failed = await rejection(
        t.store.handleOnce(
          {
            id: 'req-f',
            operation: 'resource_create',
            idempotency: { key: 'k1', fingerprint: 'f1', expires: later(60_000) },
          },
          async (tx) => tx.createResource('absent', { name: 'a.csv', url: 'a.csv', url_type: 'upload' }),
        ),
      );
      assert.equal(failed.kind, 'not-found');
      const u = uploads();
      const first = await u.send('req-a', 'f1', later(100));
      assert.equal(u.runs, 1, 'the failed attempt left the key free');
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Expired: the key is free again, for this request or another.
      const second = await u.send('req-b', 'f2');
      assert.notDeepEqual(second, first);
      assert.equal(u.runs, 2);
      const expiring = uploads('k3');
      await expiring.send('req-c', 'f1', later(100));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await t.store.forgetHandledRequests(new Date(0));
      await expiring.send('req-d', 'f2');
      assert.equal(expiring.runs, 2, 'forgotten when expired');
      assert.deepEqual(await uploads().send('req-e', 'f2'), second, 'an unexpired key is not forgotten');
    });

    // PostgreSQL: the second claim of the key waits for the first's commit, then finds its answer.
    if (env.concurrentConnections)
      test('idempotency key: two retries at once through two connections write once and answer alike', async () => {
        const second = await t.ns.connect();
        const u = uploads();
        const [a, b] = await Promise.all([u.send('req-1'), u.send('req-2', 'f1', later(60_000), second)]);
        assert.deepEqual(a, b);
        assert.equal(u.runs, 1);
        assert.equal(await resourceCount(), 1);
      });

    // PostgreSQL: the second claim of the id waits for the first's commit, then finds its answer.
    if (env.concurrentConnections)
      test('two deliveries at once through two connections write once and answer alike', async () => {
        const second = await t.ns.connect();
        const deliver = (store: typeof t.store, name: string) =>
          store.handleOnce({ id: 'req-c', operation: 'package_create' }, async (tx) => {
            const d = await tx.createDataset({ name });
            // Long enough for the other delivery to arrive while this one is open.
            await new Promise((resolve) => setTimeout(resolve, 100));
            return d.id;
          });
        const [a, b] = await Promise.all([deliver(t.store, 'one'), deliver(second, 'two')]);
        assert.equal(a, b);
        const names = (await t.store.listDatasets({ includePrivateFor: 'all' })).map((d) => d.name);
        assert.equal(names.length, 1);
        assert.equal((await t.store.getDataset(names[0]!))?.id, a);
      });
  });
}
