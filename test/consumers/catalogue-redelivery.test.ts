// A catalogue request the bus delivers twice (its offset commit lost, here: the group's offsets
// reset after it was handled) creates one resource, and the consumer answers the repeat with
// the first answer. A new request with the same parameters is another request.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { catalogOf, openBus } from '../../lib/bus/open.ts';
import type { TransportBus } from '../../lib/bus/bus.ts';
import type { Subscription } from '../../lib/bus/contract.ts';
import { requestConsumer, startConsumer } from '../../consumers/registry.ts';
import { WorkerPool } from '../../consumers/workers/pool.ts';
import { blobStoreIn } from '../../lib/blobs/blob-store.ts';
import { createToken } from '../../lib/catalogue/auth/tokens.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { CATALOGUE_GROUP } from '../../lib/contracts/catalogue.ts';
import { tempDir } from '../support/temp.ts';

const TOPICS = new URL('../../topics.yaml', import.meta.url).pathname;
const consumer = {
  group: CATALOGUE_GROUP,
  module: new URL('../../consumers/catalogue.ts', import.meta.url).href,
};
const dataDir = tempDir('labld-catalogue-redelivery-');
const catalog = catalogOf({ topicsFile: TOPICS });
const topic = catalog.topicReadBy(CATALOGUE_GROUP).name;
const pool = new WorkerPool({ sources: [consumer], dataDir, size: 1, memoryMb: 128 });
// What the consumer answered, delivery by delivery (it replies with this).
const answers: unknown[] = [];
const answering = {
  size: pool.size,
  run: async (...args: Parameters<WorkerPool['run']>) => {
    const answer = await pool.run(...args);
    answers.push(answer);
    return answer;
  },
} as WorkerPool;
const runtime = () => ({ bus, catalog, blobs: blobStoreIn(dataDir) });
let bus: TransportBus;
let subscription: Subscription;
let tokenHash: string;

before(async () => {
  const store = await openCatalogueStore({ dataDir });
  const ada = await store.createUser({ name: 'ada' });
  tokenHash = createToken().hash;
  await store.createToken({ user_id: ada.id, name: 't', token_hash: tokenHash });
  await store.createDataset({ name: 'plates', creator_user_id: ada.id });
  await store.close();
  bus = await openBus({ transport: 'embedded', dataDir, topicsFile: TOPICS });
  await pool.start();
  subscription = await startConsumer(requestConsumer(consumer.group, 'catalogue'), {
    runtime: runtime(),
    pool: answering,
  });
});
after(async () => {
  await bus.close();
  await pool.close();
});

const createLink = () =>
  bus.request(
    topic,
    {
      operation: 'resource_create',
      input: {
        credential: { kind: 'token', hash: tokenHash },
        params: { package_id: 'plates', url: 'https://files.example.org/plate-1.csv' },
      },
    },
    { timeoutMs: 30_000 },
  );

async function resourcesOfPlates(): Promise<unknown[]> {
  const store = await openCatalogueStore({ dataDir });
  try {
    return await store.listResources('plates');
  } finally {
    await store.close();
  }
}

test('a resource_create delivered again creates no second resource and answers the same', async () => {
  const answer = (await createLink()) as { id: string; package_id: string };
  assert.equal(answer.package_id !== undefined, true);
  assert.deepEqual(answers, [answer]);
  // The delivery again: the group starts over from the first request.
  await subscription.close();
  await bus.replay(topic, CATALOGUE_GROUP, { offset: 0 });
  subscription = await startConsumer(requestConsumer(consumer.group, 'catalogue'), {
    runtime: runtime(),
    pool: answering,
  });
  for (let waited = 0; answers.length < 2 && waited < 30_000; waited += 50) await sleep(50);
  assert.equal(answers.length, 2, 'the request was delivered again');
  assert.deepEqual(answers[1], answer);
  const resources = (await resourcesOfPlates()) as { id: string }[];
  assert.deepEqual(
    resources.map((r) => r.id),
    [answer.id],
  );
  // The same parameters in a new request (a new request id): a second resource, as asked.
  const second = (await createLink()) as { id: string };
  assert.notEqual(second.id, answer.id);
  assert.equal((await resourcesOfPlates()).length, 2);
});
