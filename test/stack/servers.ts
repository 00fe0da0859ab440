// The real servers of a stack test, stopped and started again mid-run: the Kafka broker
// (tools/kafka/broker.sh) and PostgreSQL (tools/postgres/server.sh), the very ones .ci/run
// started, found by the environment it exports (KAFKA_PORT, KAFKA_CONTROLLER_PORT,
// LABLD_TEST_DATABASE_URL). And what the broker still holds unhandled: consumer-group lag.
import { spawn } from 'node:child_process';
import kafkajs from 'kafkajs';
import { BROKERS } from '../kafka/broker.ts';
import { catalogOf } from '../../lib/bus/open.ts';

const tool = (path: string) => new URL(`../../tools/${path}`, import.meta.url).pathname;

/**
 * Runs a server script in a process group of its own: the server it starts outlives this test
 * even when a runner's `timeout` stops the test's whole group.
 */
function run(script: string, action: string, env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(tool(script), [action], { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${script} ${action} exited ${code}: ${stderr}`)),
    );
  });
}

export interface ServerControl {
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * The broker of KAFKA_BROKERS, when it is the one tools/kafka/broker.sh runs on KAFKA_PORT
 * (throws otherwise: a broker the test cannot start again must not be stopped). It starts
 * again with its data kept (KAFKA_KEEP_DATA=1): topics, offsets and messages survive.
 */
export function kafkaBroker(): ServerControl {
  const port = process.env.KAFKA_PORT || '19092';
  if (BROKERS.length !== 1 || BROKERS[0] !== `127.0.0.1:${port}`)
    throw new Error(
      `KAFKA_BROKERS (${BROKERS.join(',')}) is not tools/kafka/broker.sh's 127.0.0.1:${port}; export KAFKA_PORT`,
    );
  const env = { ...process.env, KAFKA_KEEP_DATA: '1' };
  return {
    stop: () => run('kafka/broker.sh', 'stop', env),
    start: () => run('kafka/broker.sh', 'start', env),
  };
}

/** The PostgreSQL server of `url`, run by tools/postgres/server.sh on the URL's port. */
export function postgresServer(url: string): ServerControl {
  const env = { ...process.env, PG_PORT: new URL(url).port || '5432' };
  return {
    stop: () => run('postgres/server.sh', 'stop', env),
    start: () => run('postgres/server.sh', 'start', env),
  };
}

const TOPICS = new URL('../../topics.yaml', import.meta.url).pathname;

/** The topic that the consumer group `name` (topics.yaml) reads, if it is one of the declared groups. */
function declaredTopic(name: string): string | undefined {
  try {
    return catalogOf({ topicsFile: TOPICS }).topicReadBy(name).name;
  } catch {
    return undefined; // a reply topic's reader, a dead-letter collector
  }
}

/**
 * Partitions of the topics named `prefix…` that a consumer group has not handled to the end
 * (committed offset below the high watermark), dead-letter topics left out: what they hold is
 * kept for replay. A group's own topic (topics.yaml) counts in full, also the partitions it
 * never committed on. Each as `group topic/partition committed<high`.
 */
export async function unhandled(prefix: string): Promise<string[]> {
  const admin = new kafkajs.Kafka({
    clientId: 'labld-test-lag',
    brokers: BROKERS,
    logLevel: kafkajs.logLevel.NOTHING,
    connectionTimeout: 3_000,
  }).admin();
  await admin.connect();
  try {
    const groups = (await admin.listGroups()).groups
      .map((g) => g.groupId)
      .filter((g) => g.startsWith(prefix));
    const ends = new Map<string, Map<number, { low: number; high: number }>>();
    const endsOf = async (topic: string) => {
      if (!ends.has(topic))
        ends.set(
          topic,
          new Map(
            (await admin.fetchTopicOffsets(topic)).map((p) => [
              p.partition,
              { low: Number(p.low), high: Number(p.high) },
            ]),
          ),
        );
      return ends.get(topic)!;
    };
    const left: string[] = [];
    for (const groupId of groups) {
      const committed = (await admin.fetchOffsets({ groupId })).map((t) => t.topic);
      const own = declaredTopic(groupId.slice(prefix.length));
      const topics = [...new Set([...committed, ...(own ? [prefix + own] : [])])];
      if (topics.length === 0) continue;
      for (const { topic, partitions } of await admin.fetchOffsets({ groupId, topics })) {
        if (!topic.startsWith(prefix) || topic.endsWith('.dead-letter')) continue;
        const end = await endsOf(topic);
        for (const { partition, offset } of partitions) {
          const { low, high } = end.get(partition) ?? { low: 0, high: 0 };
          const committed = Number(offset) < 0 ? low : Number(offset);
          if (committed < high) left.push(`${groupId} ${topic}/${partition} ${committed}<${high}`);
        }
      }
    }
    return left;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}
