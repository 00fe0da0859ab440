// The Kafka broker the Kafka test suites run against: KAFKA_BROKERS, or the one that
// tools/kafka/broker.sh starts. Absent broker = a loud failure, never a skip.
import kafkajs from 'kafkajs';
import '../../lib/bus/kafka/kafkajs-fixes.ts';
import { brokerList } from '../../lib/bus/open.ts';

export const BROKERS = brokerList(process.env.KAFKA_BROKERS || '127.0.0.1:19092');

const quiet = { logLevel: kafkajs.logLevel.NOTHING, connectionTimeout: 3_000, retry: { retries: 2 } };

/**
 * Throws, saying how to start one, when no broker answers. Then warms a fresh broker up: the
 * first group join creates and loads the offsets topic, and until then group coordinators
 * answer "loading" for a few seconds, which the first test would otherwise pay for.
 */
export async function requireBroker(): Promise<void> {
  const kafka = new kafkajs.Kafka({ clientId: 'labld-test-probe', brokers: BROKERS, ...quiet });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } catch (error) {
    await admin.disconnect().catch(() => {});
    throw new Error(
      `no Kafka broker at ${BROKERS.join(',')} (${(error as Error).message}); ` +
        'start one with `tools/kafka/broker.sh start` or point KAFKA_BROKERS at one',
    );
  }
  const topic = `labld-warm-up-${process.pid}-${Date.now()}`;
  const consumer = kafka.consumer({ groupId: topic, maxWaitTimeInMs: 100 });
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic] });
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    await consumer.run({ eachMessage: async () => {} });
    await joined;
  } finally {
    await consumer.disconnect().catch(() => {});
    await admin.deleteTopics({ topics: [topic] }).catch(() => {});
    await admin.deleteGroups([topic]).catch(() => {});
    await admin.disconnect().catch(() => {});
  }
}

/** Delete every topic whose name starts with `prefix` (a test's namespace). */
export async function deleteNamespace(prefix: string): Promise<void> {
  const admin = new kafkajs.Kafka({ clientId: 'labld-test-cleanup', brokers: BROKERS, ...quiet }).admin();
  try {
    await admin.connect();
    // A topic the list still names may already be going (the broker's metadata lags under
    // load); "unknown topic" then means the goal is reached, so the rest are deleted again.
    for (let attempt = 1; ; attempt++) {
      const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
      if (topics.length === 0) return;
      try {
        await admin.deleteTopics({ topics });
        return;
      } catch (error) {
        if (attempt === 3 || !isUnknownTopic(error)) throw error;
      }
    }
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

function isUnknownTopic(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { type?: string }).type === 'UNKNOWN_TOPIC_OR_PARTITION') return true;
  }
  return false;
}

/** Members of a consumer group right now (the cluster's group name, prefix included). */
export async function groupMembers(groupId: string): Promise<number> {
  const admin = new kafkajs.Kafka({ clientId: 'labld-test-probe', brokers: BROKERS, ...quiet }).admin();
  try {
    await admin.connect();
    const { groups } = await admin.describeGroups([groupId]);
    return groups[0]?.members.length ?? 0;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}
