// labld's own counters around the load bench's run (bench/load.ts): where a page's time goes.
// From /metrics (answered to this machine by default): the main thread's event-loop delay over
// the run (prom-client's monitorEventLoopDelay, reset by each scrape, so a scrape at the start
// makes the one at the end cover exactly the run), each consumer group's wait for an operation
// worker (labld_worker_wait_seconds), and the backlog left (waiting jobs, uncommitted messages).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Target } from './labld-child.ts';

/** One scrape: each sample line's name with its labels → its value. */
export type Scrape = Map<string, number>;

export async function scrape(labld: Target): Promise<Scrape> {
  const text = await (await fetch(`${labld.url}/metrics`)).text();
  const samples: Scrape = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

const ms = (seconds: number | undefined) => `${Math.round((seconds ?? NaN) * 1000)} ms`;

/** The main thread's event-loop delay since the scrape before `end`. */
export function loopDelayLine(end: Scrape): string {
  const lag = (what: string) => end.get(`labld_nodejs_eventloop_lag_${what}_seconds`);
  return `main thread event-loop delay over the run: p50 ${ms(lag('p50'))}, p99 ${ms(lag('p99'))}, max ${ms(lag('max'))}`;
}

/** Per consumer group: jobs handed to a worker between the scrapes and their mean wait for one. */
export function workerWaitLines(start: Scrape, end: Scrape): string[] {
  const lines: string[] = [];
  for (const [key, count] of end) {
    const group = /^labld_worker_wait_seconds_count\{group="([^"]+)"\}$/.exec(key)?.[1];
    if (group === undefined) continue;
    const jobs = count - (start.get(key) ?? 0);
    const sumKey = `labld_worker_wait_seconds_sum{group="${group}"}`;
    const waited = (end.get(sumKey) ?? 0) - (start.get(sumKey) ?? 0);
    if (jobs > 0)
      lines.push(`${group.padEnd(28)} ${String(jobs).padStart(6)} ${ms(waited / jobs).padStart(9)}`);
  }
  return lines.sort();
}

/**
 * What the main thread holds: V8's heap in use and what V8 keeps of it, memory outside it
 * (Buffers and the like), and the embedded bus's records in memory.
 */
export function heldLine(samples: Scrape): string {
  const mb = (bytes: number | undefined) => `${Math.round((bytes ?? NaN) / 1024 / 1024)} MB`;
  let bus = 0;
  for (const [key, value] of samples) if (key.startsWith('labld_bus_held_bytes{')) bus += value;
  return (
    `main thread then: heap in use ${mb(samples.get('labld_nodejs_heap_size_used_bytes'))} ` +
    `of ${mb(samples.get('labld_nodejs_heap_size_total_bytes'))} V8 keeps, ` +
    `outside the heap ${mb(samples.get('labld_nodejs_external_memory_bytes'))}, ` +
    `the bus's records in memory ${Math.round(bus / 1024)} KB`
  );
}

/** Jobs waiting for a worker and messages not yet committed by any consumer group. */
export function backlog(samples: Scrape): number {
  let total = samples.get('labld_worker_queue') ?? 0;
  for (const [key, value] of samples) if (key.startsWith('labld_bus_consumer_lag{')) total += value;
  return total;
}

/** Waits (at most `limitMs`) until the backlog is gone; how long that took, or undefined if it did not go. */
export async function drained(labld: Target, limitMs: number): Promise<number | undefined> {
  const start = performance.now();
  for (;;) {
    if (backlog(await scrape(labld)) === 0) return performance.now() - start;
    if (performance.now() - start > limitMs) return undefined;
    await sleep(500);
  }
}
