// Embedded bus benchmark: publish→consume throughput and request/reply latency, each printed
// beside a floor measured in the same run (the bare work the bus cannot avoid), so the ratio
// means something on a shared, noisy machine. Run: npm run bench:bus [-- messages]
import { mkdtempSync, openSync, writeSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { openBus } from '../lib/bus/open.ts';

const MESSAGES = Number(process.argv[2] ?? 20_000);
const REQUESTS = 2_000;
const topicsFile = new URL('../test/bus/fixtures/topics.yaml', import.meta.url).pathname;
const payload = (seq: number) => ({ entity: `dataset-${seq % 16}`, seq, note: 'x'.repeat(200) });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Floor: the same records, JSON-encoded and appended with one synchronous write each. */
function floorAppend(dir: string): number {
  const fd = openSync(join(dir, 'floor.ndjson'), 'a');
  const start = process.hrtime.bigint();
  for (let seq = 0; seq < MESSAGES; seq += 1) {
    writeSync(
      fd,
      `${JSON.stringify({ o: seq, t: Date.now(), k: 'k', h: {}, v: JSON.stringify(payload(seq)) })}\n`,
    );
  }
  closeSync(fd);
  return MESSAGES / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function throughput(dataDir: string): Promise<number> {
  const bus = await openBus({ transport: 'embedded', dataDir, topicsFile });
  let received = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  await bus.subscribe('conformance.events', 'bench', async () => {
    if (++received === MESSAGES) done();
  });
  const start = process.hrtime.bigint();
  for (let seq = 0; seq < MESSAGES; seq += 1) {
    await bus.publish('conformance.events', payload(seq), { key: `dataset-${seq % 16}` });
  }
  await finished;
  const rate = MESSAGES / (Number(process.hrtime.bigint() - start) / 1e9);
  await bus.close();
  return rate;
}

async function requestReply(dataDir: string): Promise<number[]> {
  const bus = await openBus({ transport: 'embedded', dataDir, topicsFile });
  await bus.serve<{ seq: number }, { seq: number }>('conformance.requests', 'bench-server', async (m) => ({
    seq: m.value.seq,
  }));
  const latencies: number[] = [];
  for (let seq = 0; seq < REQUESTS; seq += 1) {
    const start = process.hrtime.bigint();
    await bus.request('conformance.requests', { entity: 'r', seq }, { timeoutMs: 10_000 });
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  await bus.close();
  return latencies.sort((a, b) => a - b);
}

/** Floor: a request and its reply as two events on an in-process emitter. */
async function floorRequestReply(): Promise<number[]> {
  const emitter = new EventEmitter();
  emitter.on('request', (seq: number) => setImmediate(() => emitter.emit(`reply-${seq}`, { seq })));
  const latencies: number[] = [];
  for (let seq = 0; seq < REQUESTS; seq += 1) {
    const start = process.hrtime.bigint();
    await new Promise((resolve) => {
      emitter.once(`reply-${seq}`, resolve);
      emitter.emit('request', seq);
    });
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return latencies.sort((a, b) => a - b);
}

const dir = mkdtempSync(join(tmpdir(), 'labld-bench-bus-'));
try {
  const floor = floorAppend(dir);
  const rate = await throughput(join(dir, 'throughput'));
  console.log(
    `embedded publish→consume: ${rate.toFixed(0)} msg/s (${MESSAGES} messages, 16 keys, 3 partitions); ` +
      `floor (bare NDJSON appends): ${floor.toFixed(0)} msg/s; ratio ${(rate / floor).toFixed(2)}`,
  );
  const rr = await requestReply(join(dir, 'rr'));
  const base = await floorRequestReply();
  console.log(
    `embedded request/reply: p50 ${percentile(rr, 50).toFixed(3)} ms, p99 ${percentile(rr, 99).toFixed(3)} ms ` +
      `(${REQUESTS} sequential requests); floor (emitter round trip): p50 ${percentile(base, 50).toFixed(3)} ms, ` +
      `p99 ${percentile(base, 99).toFixed(3)} ms; p50 ratio ${(percentile(rr, 50) / percentile(base, 50)).toFixed(1)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
