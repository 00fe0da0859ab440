// Shared by the HTTP benches: labld on the embedded bus in a fresh data directory, and latency
// sampling (warm up, time `n` calls, percentiles).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded, type Running } from '../app/processes.ts';

/** labld on port 0, embedded bus, its own data directory. */
export const benchLabld = (): Promise<Running> =>
  startEmbedded({
    port: 0,
    bus: {
      transport: 'embedded',
      dataDir: mkdtempSync(join(tmpdir(), 'labld-bench-')),
      topicsFile: 'topics.yaml',
    },
  });
export { percentile } from './percentile.ts';

/** `n` timed calls (after up to 20 untimed ones), in ms, sorted. */
export async function time(n: number, once: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < Math.min(20, n); i += 1) await once(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const start = performance.now();
    await once();
    out.push(performance.now() - start);
  }
  return out.sort((a, b) => a - b);
}
