// Test-only operations for the worker pool: misbehaving on purpose (a synchronous loop, an
// allocation without end, recursion without end, client and internal errors).
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { resourceLimits } from 'node:worker_threads';
import { DomainError } from '../../lib/process/errors.ts';
import type { Operation, OperationEnv } from '../../consumers/request-consumer.ts';

/** Collections forced (gc()) in this worker since its operations were loaded. */
let forced = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const flags = (entry as unknown as { detail?: { flags?: number } }).detail?.flags ?? 0;
    if (flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) forced += 1;
  }
}).observe({ entryTypes: ['gc'] });

export function operationsFor(group: string, env: OperationEnv): Record<string, Operation> {
  return {
    /** How many collections were forced in this worker so far (its observer's entries come late). */
    forcedCollections: async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return forced;
    },
    echo: async (input) => ({ group, input, blobs: env.blobs.dir }),
    /** Busy for `ms` milliseconds (forever without), never yielding to the event loop. */
    spin: async (input) => {
      const until = typeof input['ms'] === 'number' ? Date.now() + input['ms'] : Infinity;
      let turns = 0;
      while (Date.now() < until) turns += 1;
      return { turns };
    },
    grow: async () => {
      const kept: number[][] = [];
      for (;;) kept.push(new Array(100_000).fill(kept.length));
    },
    /** Grows one Map: its backing store's growth near V8's limit would abort the whole process. */
    growMap: async () => {
      const map = new Map<string, { n: number }>();
      for (let n = 0; ; n += 1) map.set(`key-${n}`, { n });
    },
    /** Pushes onto one array: each growth of its backing store is one large allocation. */
    growArray: async () => {
      const items: number[] = [];
      for (let n = 0; ; n += 1) items.push(n + 0.5);
    },
    /** Builds one string and flattens it, as a serializer writing one giant string does. */
    growString: async () => {
      let text = 'line of output\n';
      const kept: string[] = [];
      for (;;) {
        text += text;
        kept.push(text.slice(1)); // a flat copy each time
      }
    },
    /**
     * Allocates short-lived objects for a while; the size V8 gave the new space meanwhile, and the
     * young generation's limit this thread was started with.
     */
    churn: async () => {
      let kept: { n: number; text: string }[] = [];
      for (let n = 0; n < 3_000_000; n += 1) {
        kept.push({ n, text: `row ${n}` });
        if (kept.length > 20_000) kept = [];
      }
      const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      return {
        newSpaceBytes: space?.space_size ?? 0,
        youngGenerationMb: resourceLimits.maxYoungGenerationSizeMb,
        kept: kept.length,
      };
    },
    boom: async () => {
      const down = (n: number): number => down(n + 1) + 1;
      return down(0);
    },
    /** A parser that wraps the stack overflow in its own client error, naming its field. */
    boomWrapped: async () => {
      try {
        const down = (n: number): number => down(n + 1) + 1;
        return down(0);
      } catch (error) {
        throw new DomainError('invalid', `document: cannot parse: ${(error as Error).message}`, 'document');
      }
    },
    fail: async () => {
      throw new DomainError('invalid', 'x: not a number', 'x');
    },
    internal: async () => {
      throw new TypeError('secret internals at /srv/labld');
    },
    /** A bug (TypeError) or a reset connection, each run counted as a line appended to `path`. */
    bug: async (input) => {
      appendFileSync(String(input['path']), 'ran\n');
      throw new TypeError("Cannot read properties of undefined (reading 'rows')");
    },
    reset: async (input) => {
      appendFileSync(String(input['path']), 'ran\n');
      throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    },
    /**
     * Dies as undici 7 did on a paused parser (nodejs/undici#5360): a throw from an event handler,
     * which no promise catches. Each run appends a line to `path`; with `once`, only the first dies.
     */
    die: async (input) => {
      const path = String(input['path']);
      const first = !existsSync(path);
      appendFileSync(path, 'ran\n');
      if (input['once'] && !first) return 'survived';
      setImmediate(() => {
        throw new Error('The expression evaluated to a falsy value: assert(!this.paused)');
      });
      return new Promise(() => {});
    },
    /**
     * Holds `mb` MB of arrays for `ms` milliseconds (the heap watch looks meanwhile), then lets
     * them go: what stays behind is garbage, as a request's parsed input and output are.
     */
    hold: async (input) => {
      const held: number[][] = [];
      for (let mb = 0; mb < Number(input['mb']); mb += 1) held.push(new Array(131_072).fill(mb + 0.5));
      await new Promise((resolve) => setTimeout(resolve, Number(input['ms'] ?? 300)));
      return held.length;
    },
    /** Leaves a mark on disk, so a test can tell it ran. */
    mark: async (input) => {
      writeFileSync(String(input['path']), 'ran');
      return 'marked';
    },
  };
}
