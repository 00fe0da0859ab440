// The hostile suite's watcher, run in a worker thread so that it keeps its own event loop when
// labld's (the test process's main thread) is blocked: polls /healthz every PERIOD ms and
// records each latency, samples the process's RSS (worker threads share it), and — because a
// frozen main thread can neither time out nor fail a test — ends the test process itself when
// /healthz stays silent or RSS runs away, saying why on stderr.
import { writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';

export interface MonitorOptions {
  healthz: string;
  periodMs: number;
  /** /healthz silent this long: labld is frozen, end the process. */
  frozenMs: number;
  /** RSS past this: end the process before it hurts the machine. */
  rssKillBytes: number;
  label: string;
}

export interface MonitorReport {
  latencies: number[];
  failures: string[];
  maxRss: number;
}

const options = workerData as MonitorOptions;
const latencies: number[] = [];
const failures: string[] = [];
let maxRss = process.memoryUsage.rss();
let pendingSince: number | undefined;
let stopping = false;

function die(why: string): never {
  writeSync(2, `\n[hostile monitor] ${options.label}: ${why}; ending the test process\n`);
  process.kill(process.pid, 'SIGKILL');
  throw new Error(why);
}

const sampler = setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss > maxRss) maxRss = rss;
  if (rss > options.rssKillBytes) die(`RSS ${Math.round(rss / 2 ** 20)} MiB`);
  if (pendingSince !== undefined && performance.now() - pendingSince > options.frozenMs) {
    die(`/healthz silent for ${options.frozenMs} ms (event loop blocked)`);
  }
}, 10);

async function poll(): Promise<void> {
  const start = performance.now();
  pendingSince = start;
  try {
    const response = await fetch(options.healthz);
    await response.arrayBuffer();
    if (response.status !== 200) failures.push(`/healthz answered ${response.status}`);
  } catch (error) {
    const cause = (error as Error).cause as Error | undefined;
    failures.push(`/healthz failed: ${(error as Error).message}${cause ? ` (${cause.message})` : ''}`);
  }
  pendingSince = undefined;
  latencies.push(performance.now() - start);
}

parentPort!.on('message', (message: string) => {
  if (message === 'stop') stopping = true;
});

// A first poll opens the connection; only what follows is measured.
await poll();
latencies.length = 0;
failures.length = 0;
parentPort!.postMessage('ready');
while (!stopping) {
  const start = performance.now();
  await poll();
  await sleep(Math.max(0, options.periodMs - (performance.now() - start)));
}
clearInterval(sampler);
parentPort!.postMessage({ latencies, failures, maxRss } satisfies MonitorReport);
