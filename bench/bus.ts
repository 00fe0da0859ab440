// Bus benchmark: embedded and Kafka side by side, each beside a floor measured in the same run
// (the bare work a bus on that transport cannot avoid), so the ratios mean something on a
// shared, noisy machine.
//
//   publish→consume throughput (msg/s), publishes awaited one by one and 64 in flight;
//     floors: bare NDJSON appends (embedded), bare kafkajs in batches of 500 with autoCommit (Kafka)
//   request/reply latency p50/p99: embedded in process; Kafka through 1 and 2 consumer processes;
//     floor: an in-process emitter round trip
//
// Run: npm run bench:bus [-- messages]           embedded only, unless KAFKA_BROKERS names a broker
//      npm run bench:bus-kafka [-- messages]     both; starts a broker (tools/kafka) if none is named
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, writeSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import kafkajs from 'kafkajs';
import { brokerList, openBus, catalogOf, type BusConfig } from '../lib/bus/open.ts';
import type { Bus } from '../lib/bus/contract.ts';
import { requireBroker, deleteNamespace } from '../test/kafka/broker.ts';
import { percentile } from './percentile.ts';

const EVENTS = 'conformance.events';
const REQUESTS = 'conformance.requests';
const topicsFile = new URL('../test/bus/fixtures/topics.yaml', import.meta.url).pathname;
const brokers = brokerList(process.env.KAFKA_BROKERS ?? '');
const payload = (seq: number) => ({ entity: `dataset-${seq % 16}`, seq, note: 'x'.repeat(200) });

const kafkaConfig = (prefix: string): BusConfig => ({
  transport: 'kafka',
  dataDir: tmpdir(),
  topicsFile,
  kafka: { brokers, topicPrefix: prefix },
});

const open = (config: BusConfig): Promise<Bus> => openBus(config, catalogOf(config));

const echo = (bus: Bus) =>
  bus.serve<{ seq: number }, { seq: number }>(REQUESTS, 'bench-server', async (m) => ({ seq: m.value.seq }));

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

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
  await finished;
  const rate = messages / seconds(start);
  await bus.close();
  return rate;
}

/** Embedded floor: the same records, JSON-encoded and appended with one synchronous write each. */
function floorAppend(dir: string, messages: number): number {
  const fd = openSync(join(dir, 'floor.ndjson'), 'a');
  const start = process.hrtime.bigint();
  for (let seq = 0; seq < messages; seq += 1) {
    writeSync(
      fd,
      `${JSON.stringify({ o: seq, t: Date.now(), k: 'k', h: {}, v: JSON.stringify(payload(seq)) })}\n`,
    );
  }
  closeSync(fd);
  return messages / seconds(start);
}

/** Kafka floor: bare kafkajs, batches of 500 produced with acks=all, consumed with autoCommit. */
async function floorKafka(prefix: string, messages: number): Promise<number> {
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
  const rate = messages / seconds(start);
  await Promise.all([producer.disconnect(), consumer.disconnect()]);
  return rate;
}

async function latencies(client: Bus, requests: number): Promise<number[]> {
  const out: number[] = [];
  for (let seq = 0; seq < requests; seq += 1) {
    const start = process.hrtime.bigint();
    await client.request(REQUESTS, { entity: 'r', seq }, { timeoutMs: 10_000 });
    out.push(seconds(start) * 1e3);
  }
  return out.sort((a, b) => a - b);
}

/** Floor: a request and its reply as two events on an in-process emitter. */
async function floorRequestReply(requests: number): Promise<number[]> {
  const emitter = new EventEmitter();
  emitter.on('request', (seq: number) => setImmediate(() => emitter.emit(`reply-${seq}`, { seq })));
  const out: number[] = [];
  for (let seq = 0; seq < requests; seq += 1) {
    const start = process.hrtime.bigint();
    await new Promise((resolve) => {
      emitter.once(`reply-${seq}`, resolve);
      emitter.emit('request', seq);
    });
    out.push(seconds(start) * 1e3);
  }
  return out.sort((a, b) => a - b);
}

async function embeddedRequestReply(dataDir: string, requests: number): Promise<number[]> {
  const bus = await open({ transport: 'embedded', dataDir, topicsFile });
  await echo(bus);
  try {
    await latencies(bus, 50);
    return await latencies(bus, requests);
  } finally {
    await bus.close();
  }
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

async function kafkaRequestReply(prefix: string, servers: number, requests: number): Promise<number[]> {
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

const rate = (r: number) => `${r.toFixed(0)} msg/s`;
const pp = (sorted: number[]) =>
  `p50 ${percentile(sorted, 50).toFixed(3)} ms, p99 ${percentile(sorted, 99).toFixed(3)} ms`;

async function main(messages: number): Promise<void> {
  const requests = Math.min(1_000, messages);
  const prefix = `bench-${process.pid}-${Date.now().toString(36)}.`;
  const dir = mkdtempSync(join(tmpdir(), 'labld-bench-bus-'));
  const embedded = (run: string): BusConfig => ({
    transport: 'embedded',
    dataDir: join(dir, run),
    topicsFile,
  });
  try {
    if (brokers.length > 0) await requireBroker();
    else console.log('(KAFKA_BROKERS is not set: embedded only; npm run bench:bus-kafka runs both)');
    console.log(`publish→consume, ${messages} messages, 16 keys, 4 partitions, one consumer:`);
    const e1 = await throughput(embedded('one'), messages, 1);
    const e64 = await throughput(embedded('many'), messages, 64);
    const eFloor = floorAppend(dir, messages);
    console.log(
      `  embedded: one by one ${rate(e1)}, 64 in flight ${rate(e64)}; floor (bare NDJSON appends) ${rate(eFloor)}; ` +
        `ratio ${(e1 / eFloor).toFixed(2)}`,
    );
    let k1 = 0;
    let k64 = 0;
    if (brokers.length > 0) {
      k1 = await throughput(kafkaConfig(`${prefix}one.`), messages, 1);
      k64 = await throughput(kafkaConfig(`${prefix}many.`), messages, 64);
      const kFloor = await floorKafka(`${prefix}one.`, messages);
      console.log(
        `  kafka:    one by one ${rate(k1)}, 64 in flight ${rate(k64)}; floor (bare kafkajs, batches of 500) ${rate(kFloor)}; ` +
          `ratio ${(k64 / kFloor).toFixed(2)}`,
      );
      console.log(
        `  kafka / embedded: one by one ${(k1 / e1).toFixed(2)}, 64 in flight ${(k64 / e64).toFixed(2)}`,
      );
    }
    console.log(`request/reply, ${requests} sequential requests:`);
    const floor = await floorRequestReply(requests);
    const emb = await embeddedRequestReply(join(dir, 'rr'), requests);
    console.log(`  floor (in-process emitter round trip): ${pp(floor)}`);
    console.log(`  embedded (consumer in process):        ${pp(emb)}`);
    if (brokers.length > 0) {
      const one = await kafkaRequestReply(`${prefix}rr1.`, 1, requests);
      const two = await kafkaRequestReply(`${prefix}rr2.`, 2, requests);
      console.log(`  kafka, 1 consumer process:             ${pp(one)}`);
      console.log(`  kafka, 2 consumer processes:           ${pp(two)}`);
      console.log(
        `  p50 kafka (1 process) / embedded: ${(percentile(one, 50) / percentile(emb, 50)).toFixed(1)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (brokers.length > 0) await deleteNamespace(prefix);
  }
}

// ---- child mode: one consumer process answering requests on Kafka ----
if (process.argv[2] === '--serve') {
  const bus = await open(kafkaConfig(process.argv[3]!));
  await echo(bus);
  process.stdout.write('ready\n');
  process.once('SIGTERM', () => void bus.close().then(() => process.exit(0)));
  setInterval(() => {}, 1 << 30);
} else {
  await main(Number(process.argv[2] ?? 5_000));
}
