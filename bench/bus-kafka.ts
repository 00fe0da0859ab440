// Kafka bus benchmark, beside the embedded bus in the same run: publish→consume throughput
// (publishes awaited one by one, and 64 in flight) and request/reply latency through 1 and
// through 2 consumer processes. A floor for throughput is bare kafkajs (produce in batches,
// consume with autoCommit), the most a bus on kafkajs could reach on this machine.
//
// Run: tools/kafka/with-broker.sh node bench/bus-kafka.ts [messages]   (KAFKA_BROKERS to reuse a broker)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import { openBus, catalogOf, type BusConfig } from '../lib/bus/open.ts';
import type { Bus } from '../lib/bus/contract.ts';
import { requireBroker } from '../test/kafka/broker.ts';

const EVENTS = 'conformance.events';
const REQUESTS = 'conformance.requests';
const topicsFile = new URL('../test/bus/fixtures/topics.yaml', import.meta.url).pathname;
const brokers = (process.env.KAFKA_BROKERS || '127.0.0.1:19092').split(',');
const payload = (seq: number) => ({ entity: `dataset-${seq % 16}`, seq, note: 'x'.repeat(200) });

function kafkaConfig(prefix: string): BusConfig {
  return { transport: 'kafka', dataDir: tmpdir(), topicsFile, kafka: { brokers, topicPrefix: prefix } };
}

async function open(config: BusConfig): Promise<Bus> {
  return openBus(config, catalogOf(config));
}

// ---- child mode: one consumer process answering requests ----
if (process.argv[2] === '--serve') {
  const bus = await open(kafkaConfig(process.argv[3]!));
  await bus.serve<{ seq: number }, { seq: number }>(REQUESTS, 'bench-server', async (m) => ({
    seq: m.value.seq,
  }));
  process.stdout.write('ready\n');
  process.once('SIGTERM', () => void bus.close().then(() => process.exit(0)));
  setInterval(() => {}, 1 << 30);
} else {
  await main();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function throughput(config: BusConfig, messages: number, inFlight: number): Promise<number> {
  const bus = await open(config);
  let received = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  await bus.subscribe(EVENTS, 'bench', async () => {
    if (++received === messages) done();
  });
  const start = process.hrtime.bigint();
  let next = 0;
  const publisher = async () => {
    while (next < messages) {
      const seq = next++;
      await bus.publish(EVENTS, payload(seq), { key: `dataset-${seq % 16}` });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, publisher));
  const progress = setInterval(() => console.error(`  … ${received}/${messages} consumed`), 5_000);
  await finished;
  clearInterval(progress);
  const rate = messages / (Number(process.hrtime.bigint() - start) / 1e9);
  await bus.close();
  return rate;
}

/** Floor: bare kafkajs, batches of 500 produced with acks=all, consumed with autoCommit. */
async function floorThroughput(prefix: string, messages: number): Promise<number> {
  const kafka = new kafkajs.Kafka({ clientId: 'bench-floor', brokers, logLevel: kafkajs.logLevel.NOTHING });
  const topic = `${prefix}${EVENTS}`;
  const producer = kafka.producer({ idempotent: true });
  const consumer = kafka.consumer({ groupId: `${prefix}floor`, maxWaitTimeInMs: 100 });
  await Promise.all([producer.connect(), consumer.connect()]);
  await consumer.subscribe({ topics: [topic], fromBeginning: false });
  let received = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.run({
    partitionsConsumedConcurrently: 4,
    eachMessage: async () => {
      if (++received === messages) done();
    },
  });
  await joined;
  const start = process.hrtime.bigint();
  for (let seq = 0; seq < messages; seq += 500) {
    const batch = Array.from({ length: Math.min(500, messages - seq) }, (_, i) => ({
      key: `dataset-${(seq + i) % 16}`,
      value: JSON.stringify(payload(seq + i)),
    }));
    await producer.send({ topic, acks: -1, messages: batch });
  }
  await finished;
  const rate = messages / (Number(process.hrtime.bigint() - start) / 1e9);
  await Promise.all([producer.disconnect(), consumer.disconnect()]);
  return rate;
}

async function latencies(client: Bus, requests: number): Promise<number[]> {
  const out: number[] = [];
  for (let seq = 0; seq < requests; seq += 1) {
    const start = process.hrtime.bigint();
    await client.request(REQUESTS, { entity: 'r', seq }, { timeoutMs: 10_000 });
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

function startServer(prefix: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--serve', prefix], {
    env: { ...process.env, LABLD_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`server process exited (${code})`)));
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function requestReply(prefix: string, servers: number, requests: number): Promise<number[]> {
  const children: ChildProcess[] = [];
  for (let i = 0; i < servers; i += 1) children.push(await startServer(prefix));
  const client = await open(kafkaConfig(prefix));
  try {
    await latencies(client, 50); // warm-up: reply topic, connections, group settled
    return await latencies(client, requests);
  } finally {
    await client.close();
    await Promise.all(children.map(stopServer));
  }
}

async function embeddedRequestReply(requests: number): Promise<number[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'labld-bench-'));
  const config: BusConfig = { transport: 'embedded', dataDir, topicsFile };
  const bus = await open(config);
  await bus.serve<{ seq: number }, { seq: number }>(REQUESTS, 'bench-server', async (m) => ({
    seq: m.value.seq,
  }));
  try {
    await latencies(bus, 50);
    return await latencies(bus, requests);
  } finally {
    await bus.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function deleteTopics(prefix: string): Promise<void> {
  const admin = new kafkajs.Kafka({
    clientId: 'bench-admin',
    brokers,
    logLevel: kafkajs.logLevel.NOTHING,
  }).admin();
  await admin.connect();
  const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
  if (topics.length > 0) await admin.deleteTopics({ topics });
  await admin.disconnect();
}

function rr(label: string, sorted: number[]): string {
  return `${label} p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
}

async function main(): Promise<void> {
  const messages = Number(process.argv[2] ?? 5_000);
  const requests = Math.min(1_000, messages);
  const prefix = `bench-${process.pid}-${Date.now().toString(36)}.`;
  await requireBroker();
  const dataDir = mkdtempSync(join(tmpdir(), 'labld-bench-'));
  try {
    // Each run on fresh topics, so that no run reads an earlier run's messages.
    const embedded = (run: string): BusConfig => ({
      transport: 'embedded',
      dataDir: join(dataDir, run),
      topicsFile,
    });
    const e1 = await throughput(embedded('one'), messages, 1);
    const k1 = await throughput(kafkaConfig(`${prefix}one.`), messages, 1);
    const e64 = await throughput(embedded('many'), messages, 64);
    const k64 = await throughput(kafkaConfig(`${prefix}many.`), messages, 64);
    const floor = await floorThroughput(`${prefix}one.`, messages);
    console.log(`publish→consume, ${messages} messages, 16 keys, 4 partitions, one consumer:`);
    console.log(`  publishes one by one: embedded ${e1.toFixed(0)} msg/s, kafka ${k1.toFixed(0)} msg/s`);
    console.log(`  64 publishes in flight: embedded ${e64.toFixed(0)} msg/s, kafka ${k64.toFixed(0)} msg/s`);
    console.log(
      `  floor (bare kafkajs, batches of 500, autoCommit): ${floor.toFixed(0)} msg/s; ` +
        `kafka bus / floor ${(k64 / floor).toFixed(2)}`,
    );
    const emb = await embeddedRequestReply(requests);
    const one = await requestReply(`${prefix}rr1.`, 1, requests);
    const two = await requestReply(`${prefix}rr2.`, 2, requests);
    console.log(`request/reply, ${requests} sequential requests:`);
    console.log(`  ${rr('embedded (in process):', emb)}`);
    console.log(`  ${rr('kafka, 1 consumer process:', one)}`);
    console.log(`  ${rr('kafka, 2 consumer processes:', two)}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await deleteTopics(prefix);
  }
}
