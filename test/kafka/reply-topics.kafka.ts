// Per-instance reply topics on a real broker: created on the first request, deleted on close,
// and a consumer keeps answering while requesters come and go (kafkajs alone would stop
// producing once a topic it wrote to is deleted: lib/bus/kafka/kafkajs-fixes.ts).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import kafkajs from 'kafkajs';
import { TOPICS } from '../bus/conformance.ts';
import { openBus, catalogOf, type BusConfig } from '../../lib/bus/open.ts';
import { BROKERS, deleteNamespace, requireBroker } from './broker.ts';

before(requireBroker);

const REQUESTS = 'conformance.requests';

function config(topicPrefix: string, clientId?: string): BusConfig {
  return {
    transport: 'kafka',
    dataDir: tmpdir(),
    topicsFile: TOPICS,
    clientId,
    kafka: { brokers: BROKERS, topicPrefix },
  };
}

async function topicsOf(prefix: string): Promise<string[]> {
  const admin = new kafkajs.Kafka({ brokers: BROKERS, logLevel: kafkajs.logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    return (await admin.listTopics()).filter((t) => t.startsWith(prefix)).sort();
  } finally {
    await admin.disconnect();
  }
}

test('requesters come and go; the consumer answers each; each reply topic is gone after its close', async () => {
  const prefix = `replies-${process.pid}-${Date.now().toString(36)}.`;
  const server = await openBus(config(prefix), catalogOf(config(prefix)));
  try {
    await server.serve<{ seq: number }, { seq: number }>(REQUESTS, 'servers', async (m) => ({
      seq: m.value.seq,
    }));
    for (let seq = 0; seq < 3; seq += 1) {
      const gateway = await openBus(config(prefix, `gateway-${seq}`), catalogOf(config(prefix)));
      assert.deepEqual(await gateway.request(REQUESTS, { entity: 'g', seq }, { timeoutMs: 10_000 }), { seq });
      assert.ok((await topicsOf(prefix)).includes(`${prefix}conformance.replies.gateway-${seq}`));
      await gateway.close();
      assert.ok(!(await topicsOf(prefix)).includes(`${prefix}conformance.replies.gateway-${seq}`));
    }
  } finally {
    await server.close();
    await deleteNamespace(prefix);
  }
});

test('a second running instance with the same client id is refused: it would take the first one’s replies', async () => {
  const prefix = `same-id-${process.pid}-${Date.now().toString(36)}.`;
  const c = config(prefix, 'gateway-a');
  const server = await openBus(config(prefix), catalogOf(c));
  const first = await openBus(c, catalogOf(c));
  const second = await openBus(c, catalogOf(c));
  try {
    await server.serve<{ seq: number }, { seq: number }>(REQUESTS, 'servers', async (m) => ({
      seq: m.value.seq,
    }));
    assert.deepEqual(await first.request(REQUESTS, { entity: 'a', seq: 1 }, { timeoutMs: 10_000 }), {
      seq: 1,
    });
    await assert.rejects(
      second.request(REQUESTS, { entity: 'a', seq: 2 }, { timeoutMs: 10_000 }),
      /client id gateway-a is in use by another running instance/,
    );
  } finally {
    await Promise.all([server.close(), first.close(), second.close()]);
    await deleteNamespace(prefix);
  }
});
