// The chain's outbox and step status on PostgreSQL (LABLD_TEST_DATABASE_URL, started by
// .ci/run), in schemas of their own, dropped after. Unset is a failure, not a skip.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import type { Bus } from '../../lib/bus/contract.ts';
import { loadTopics } from '../../lib/bus/topics.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { relayOnce } from '../../consumers/outbox.ts';
import { postgresCatalogue } from '../catalogue/actions/support.ts';
import { outboxSuite } from './outbox-suite.ts';

outboxSuite('postgres', async () => {
  const catalogue = await postgresCatalogue();
  return { store: catalogue.deps.store, dispose: () => catalogue.dispose() };
});

test('two relays on one database take turns: each event is published once, in order', async () => {
  const url = process.env.LABLD_TEST_DATABASE_URL ?? '';
  assert.ok(url, 'LABLD_TEST_DATABASE_URL is set');
  const schema = `test_outbox_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'labld-outbox-pg-'));
  // Two catalogue-requests replicas: two stores (connection pools) on the same tables.
  const [a, b] = [
    await openCatalogueStore({ dataDir, databaseUrl: url, schema }),
    await openCatalogueStore({ dataDir, databaseUrl: url, schema }),
  ];
  const catalog = loadTopics('topics.yaml');
  const sent: string[] = [];
  // A publish that takes a while, so that the relays' batches would overlap if they could.
  const bus = {
    publish: async (_topic: string, value: { run: string }) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      sent.push(value.run);
      return { topic: _topic, partition: 0, offset: sent.length - 1 };
    },
  } as unknown as Bus;
  try {
    const runs = Array.from({ length: 60 }, (_, n) => `run${n}`);
    for (const run of runs) {
      await a.addEvent({
        event: 'resource.uploaded',
        key: 'd1',
        payload: { dataset_id: 'd1', resource_id: 'r1', run, name: 'a.csv' },
      });
    }
    // While one relay holds the outbox, the other gets nothing and publishes nothing.
    const held = await a.claimOutbox(async () => b.claimOutbox(async () => 'ran'));
    assert.equal(held, undefined);
    const relay = async (store: typeof a) => {
      let total = 0;
      for (let n = -1; n !== 0;) total += n = await relayOnce(bus, catalog, store);
      return total;
    };
    const [byA, byB] = await Promise.all([relay(a), relay(b)]);
    for (let again = 0; (await a.pendingEvents(1)).length > 0 && again < 10; again++) await relay(a);
    assert.deepEqual(sent, runs, 'every event once, in the order written');
    assert.equal(byA + byB, runs.length);
  } finally {
    await a.close();
    await b.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
