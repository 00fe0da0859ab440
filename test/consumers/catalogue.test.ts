// The catalogue's request consumer as a worker loads it: its operations open the stores on first
// use (once, however many ask at once), check the request's shape, run the action, and the
// stores close when the worker stops.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { KEEP_HANDLED_MS, operationsFor } from '../../consumers/catalogue.ts';
import { loadTopics } from '../../lib/bus/topics.ts';
import { lazyStores } from '../../consumers/stores.ts';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { ACTION_NAMES, CATALOGUE_GROUP } from '../../lib/contracts/catalogue.ts';
import { DomainError } from '../../lib/process/errors.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'labld-catalogue-consumer-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const context = { correlationId: undefined, signal: new AbortController().signal };

test('one operation per action; the stores open once on first use and close with the worker', async () => {
  const stores = lazyStores(dataDir, { LABLD_DATABASE_URL: '' });
  const operations = operationsFor(CATALOGUE_GROUP, { blobs: blobStoreIn(dataDir), stores });
  assert.deepEqual(Object.keys(operations).sort(), [...ACTION_NAMES].sort());
  const [a, b] = await Promise.all([stores.catalogue(), stores.catalogue()]);
  assert.equal(a, b);
  const input = { credential: { kind: 'anonymous' }, params: {} } as never;
  const listed = await operations.package_list!(input, context);
  assert.deepEqual(listed, []);
  await stores.close();
  // Closed: the next use opens again.
  const reopened = await stores.catalogue();
  assert.notEqual(reopened, a);
  await stores.close();
});

test('a request that does not fit the topic schema is refused naming the field', async () => {
  const stores = lazyStores(dataDir, { LABLD_DATABASE_URL: '' });
  const operations = operationsFor(CATALOGUE_GROUP, { blobs: blobStoreIn(dataDir), stores });
  const raw = { credential: { kind: 'token', hash: 'labld_not-a-hash' }, params: {} } as never;
  await assert.rejects(operations.status_show!(raw, context), (error: unknown) => {
    assert.ok(error instanceof DomainError);
    assert.equal(error.kind, 'invalid');
    assert.match(error.field ?? '', /^input\.credential/);
    return true;
  });
  await stores.close();
});

test('another group is not this module’s', () => {
  assert.throws(() =>
    operationsFor('annotator-requests', { blobs: blobStoreIn(dataDir), stores: lazyStores(dataDir) }),
  );
});

test('handled request ids are kept longer than the requests topic keeps the requests', () => {
  // Older ids are forgotten (consumers/catalogue.ts); the bus must not be able to deliver one again.
  const topic = loadTopics('topics.yaml').topicReadBy(CATALOGUE_GROUP);
  assert.ok(Number.isFinite(topic.retentionMs), `${topic.name} keeps its messages for a while, not forever`);
  assert.ok(
    KEEP_HANDLED_MS > topic.retentionMs,
    `kept ${KEEP_HANDLED_MS} ms, ${topic.name} retention ${topic.retentionMs} ms`,
  );
});
