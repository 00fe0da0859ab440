// The chain's outbox and step status on the embedded catalogue store; and how its relay holds
// the outbox on SQLite: a lease, outside any transaction, so that the catalogue's other writes
// (this process's and other processes') go on while it publishes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import type { Bus } from '../../lib/bus/contract.ts';
import { CATALOGUE_FILE } from '../../lib/catalogue/store/embedded.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { relayOnce } from '../../consumers/outbox.ts';
import { embeddedCatalogue } from '../catalogue/actions/support.ts';
import { sleep } from '../support/wait.ts';
import { catalog, ev, outboxSuite, recordingBus, relayTurnsTest } from './outbox-suite.ts';

outboxSuite('embedded (node:sqlite)', async () => {
  const catalogue = await embeddedCatalogue();
  return { store: catalogue.deps.store, dispose: () => catalogue.dispose() };
});

/** Two stores (as two processes have) on one data directory's catalogue file. */
async function twoStores() {
  const dataDir = mkdtempSync(join(tmpdir(), 'labld-outbox-'));
  const a = await openCatalogueStore({ dataDir });
  const b = await openCatalogueStore({ dataDir });
  return {
    a,
    b,
    dataDir,
    async dispose() {
      await a.close();
      await b.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

relayTurnsTest('embedded (node:sqlite)', twoStores);

const upload1 = { event: 'resource.uploaded' as const, key: 'd1', payload: ev(1) };

/** The catalogue file of `dataDir`, opened as another process would, to see the lease row. */
const leaseRow = (dataDir: string) => new DatabaseSync(join(dataDir, CATALOGUE_FILE));

test('while a relay publishes, the catalogue is written by its own process and by another', async () => {
  const { a, b, dispose } = await twoStores();
  try {
    await a.addEvent(upload1);
    // A broker that answers only once both writes went through: before the lease, the relay's
    // transaction held SQLite's write lock, and these waited for it (30 s, then "database is locked").
    const bus = {
      publish: async (topic: string) => {
        await a.createDataset({ name: 'written-by-the-relays-process' });
        await b.createDataset({ name: 'written-by-another-process' });
        return { topic, partition: 0, offset: 0 };
      },
    } as unknown as Bus;
    assert.equal(await relayOnce(bus, catalog, a), 1);
    assert.deepEqual(await b.pendingEvents(10), []);
    assert.ok(await b.getDataset('written-by-the-relays-process'));
    assert.ok(await a.getDataset('written-by-another-process'));
  } finally {
    await dispose();
  }
});

test("a killed relay's lease runs out, and another relay takes the outbox", async () => {
  const { a, dataDir, dispose } = await twoStores();
  const file = leaseRow(dataDir);
  const leave = (expires: Date) =>
    file
      .prepare(`INSERT OR REPLACE INTO chain_outbox_lease (id, holder, expires) VALUES (1, 'killed', ?)`)
      .run(expires.toISOString());
  try {
    await a.addEvent(upload1);
    const { bus, sent } = recordingBus();
    leave(new Date(Date.now() + 60_000));
    assert.equal(await relayOnce(bus, catalog, a), 0, 'held by a lease still running');
    assert.deepEqual(
      sent.map((m) => m.value),
      [],
    );
    leave(new Date(Date.now() - 1));
    assert.equal(await relayOnce(bus, catalog, a), 1, 'the lease ran out');
    assert.deepEqual(
      sent.map((m) => m.value),
      [upload1.payload],
    );
    const lease = file.prepare(`SELECT COUNT(*) AS n FROM chain_outbox_lease`).get() as { n: number };
    assert.equal(lease.n, 0, 'the relay lets go of the outbox after its batch');
  } finally {
    file.close();
    await dispose();
  }
});

test('a relay renews its lease while a publish takes long, and lets it go after', async () => {
  const { a, dataDir, dispose } = await twoStores();
  const file = leaseRow(dataDir);
  const expires = () =>
    (file.prepare(`SELECT expires FROM chain_outbox_lease`).get() as { expires: string } | undefined)
      ?.expires;
  try {
    await a.addEvent(upload1);
    const seen: (string | undefined)[] = [];
    const bus = {
      publish: async (topic: string) => {
        seen.push(expires());
        // Past the renewal interval (a third of the 15 s lease).
        await sleep(5_500);
        seen.push(expires());
        return { topic, partition: 0, offset: 0 };
      },
    } as unknown as Bus;
    assert.equal(await relayOnce(bus, catalog, a), 1);
    const [first, later] = seen;
    assert.ok(first && later && later > first, `renewed: ${first} then ${later}`);
    assert.equal(expires(), undefined, 'let go after the batch');
  } finally {
    file.close();
    await dispose();
  }
});
