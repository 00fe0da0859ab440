// A store thread started after another was let go (LABLD_WORKER_IDLE_MS) is given the process's
// compiled oxigraph module (lib/triplestore/embedded/oxigraph-module.ts): it compiles only what
// no earlier thread ran (a finalizer that the garbage collector happened to run there, at most a
// few), where each thread used to compile its own module and every function its first load ran
// (hundreds, and the hot ones again with the optimizing compiler).
// V8 prints each function it compiles with --trace-wasm-compilation-times; no timing is read.
// And the thread uses Node's compile cache (lib/triplestore/embedded/thread.ts), which the
// main thread's does not reach.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

const run = promisify(execFile);
const CHILD = new URL('./thread-start-child.ts', import.meta.url).pathname;

/** Files in Node's default compile cache after the child ran with `temp` as its TMPDIR. */
async function cachedAfterRun(temp: string): Promise<string[]> {
  const env: NodeJS.ProcessEnv = { ...process.env, LABLD_LOG_LEVEL: 'silent', TMPDIR: temp };
  delete env['NODE_COMPILE_CACHE'];
  delete env['NODE_DISABLE_COMPILE_CACHE'];
  await run(process.execPath, [CHILD], { env });
  const cache = join(temp, 'node-compile-cache');
  return readdirSync(cache, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

/** Functions compiled while each load ran, by load. */
async function compiledPerLoad(): Promise<Record<string, number>> {
  const { stdout } = await run(process.execPath, ['--trace-wasm-compilation-times', CHILD], {
    env: { ...process.env, LABLD_LOG_LEVEL: 'silent' },
    maxBuffer: 64 * 2 ** 20,
  });
  const counts: Record<string, number> = {};
  let load = '';
  for (const line of stdout.split('\n')) {
    const marker = /^=== load (\w+)/.exec(line);
    if (marker) counts[(load = marker[1]!)] = 0;
    else if (load && line.startsWith('Compiled function')) counts[load]!++;
  }
  return counts;
}

describe('embedded triple store: a restarted thread', () => {
  it('reuses the compiled oxigraph module: the same load on a new thread compiles next to nothing', async () => {
    const { first = 0, second = -1 } = await compiledPerLoad();
    // V8 printed the first thread's compilations: the trace works, so the count below means something.
    assert.ok(first > 50, `the first load compiled ${first} functions`);
    assert.ok(
      second >= 0 && second <= 5,
      `the thread started for the second load compiled ${second} functions (the first: ${first})`,
    );
  });

  it("keeps the store thread's compiled modules in Node's compile cache for the next start", async () => {
    const temp = mkdtempSync(join(tmpdir(), 'labld-compile-cache-'));
    try {
      // The child itself turns no cache on (bin/labld.js would, for its main thread only).
      assert.ok((await cachedAfterRun(temp)).length > 0, 'files in the compile cache');
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
