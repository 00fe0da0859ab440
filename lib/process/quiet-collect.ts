// Gives the main thread's V8 heap back to the system once a busy spell is over. V8 grows the old
// space under load and keeps its pages: after the load bench's run the main thread held 158 MB of
// heap for 54 MB in use, minutes later (issue 25, docs/performance.md). An ordinary full
// collection frees the objects and keeps the pages; the last-resort kind (the one V8 runs before
// giving up on an allocation, and for a heap snapshot: 158 → 52 MB there) compacts and releases
// them. It stops the thread for its time, so it runs only when the event loop was nearly idle
// over the last look, and only when V8 holds more than SLACK_BYTES beyond what is in use.
import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: {
  type?: 'major' | 'minor';
  execution?: 'sync' | 'async';
  flavor?: 'regular' | 'last-resort';
}) => void;

/** V8's gc(), which contexts made after the flag see (the main thread's own does not). */
export function exposedGc(): Gc {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Gc;
}

export interface QuietCollectOptions {
  /** How often the event loop's use and the heap are looked at. */
  everyMs?: number;
  /** The event loop's utilization over a look at or below which the process counts as quiet. */
  quietBelow?: number;
  /** Heap V8 may hold beyond what is in use before a quiet look collects. */
  slackBytes?: number;
}

const EVERY_MS = 5000;
const QUIET_BELOW = 0.05;
const SLACK_BYTES = 32 * 1024 * 1024;

/** Starts looking; `stop` ends it. `collected` counts the collections made (for tests). */
export function collectWhenQuiet(options: QuietCollectOptions = {}): { stop(): void; collected(): number } {
  const { everyMs = EVERY_MS, quietBelow = QUIET_BELOW, slackBytes = SLACK_BYTES } = options;
  const gc = exposedGc();
  let collections = 0;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy > quietBelow) return;
    const heap = getHeapStatistics();
    if (heap.total_heap_size - heap.used_heap_size <= slackBytes) return;
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    collections += 1;
    // The collection's own time is not the next look's load.
    last = performance.eventLoopUtilization();
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer), collected: () => collections };
}
