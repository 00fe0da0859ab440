// Counts of the work one upload costs (issue 27: bus messages, thread hand-offs, store calls,
// validations, parses), for the test and bench that measure them. Off unless LABLD_COUNTS is
// `on` when a thread starts: then each `count` is posted on a BroadcastChannel, which reaches
// every thread of the process, so a collector in one thread sees the workers' counts too.
import { AsyncLocalStorage } from 'node:async_hooks';
import { BroadcastChannel } from 'node:worker_threads';
import { setting } from './config.ts';

const CHANNEL = 'labld-counts';

/** Read once per thread: workers inherit the environment they were started with. */
export const counting = setting('LABLD_COUNTS') === 'on';

let channel: BroadcastChannel | undefined;
const scope = new AsyncLocalStorage<string>();

/** Counts one `what`, under the chain step running it (`what@step`) when there is one. */
export function count(what: string): void {
  if (!counting) return;
  if (!channel) {
    channel = new BroadcastChannel(CHANNEL);
    // Counting never keeps a thread alive.
    channel.unref();
  }
  const step = scope.getStore();
  channel.postMessage(step ? `${what}@${step}` : what);
}

/** Runs `work` with what it counts put under `step`. */
export function countingIn<T>(step: string, work: () => T): T {
  return counting ? scope.run(step, work) : work();
}

/** `target` whose every method call counts as `what.method` (e.g. a store's calls). */
export function countedCalls<T extends object>(target: T, what: string): T {
  if (!counting) return target;
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        count(`${what}.${String(key)}`);
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

/** Gathers the counts every thread posts from now on; `take` returns them and starts again. */
export function collectCounts(): { take(): Record<string, number>; close(): void } {
  const counts: Record<string, number> = {};
  const listener = new BroadcastChannel(CHANNEL);
  listener.onmessage = (message) => {
    const key = (message as { data: string }).data;
    counts[key] = (counts[key] ?? 0) + 1;
  };
  return {
    take() {
      const taken = { ...counts };
      for (const key of Object.keys(counts)) delete counts[key];
      return taken;
    },
    close: () => listener.close(),
  };
}
