// A process run with V8's --trace-wasm-compilation-times (thread-start.test.ts): loads the same
// small graph into two datasets, the store's thread let go in between, and prints a line
// before each load, so that the test can count which WebAssembly functions each thread compiled.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedTripleStore } from '../../lib/triplestore/embedded/store.ts';
import { DEFAULT_TEST_LIMITS, graphOf, numbered, turtle } from './support.ts';

const dir = mkdtempSync(join(tmpdir(), 'labld-thread-start-'));
const store = await openEmbeddedTripleStore({
  dataDir: dir,
  limits: DEFAULT_TEST_LIMITS,
  memoryTriples: 1_000_000,
  idleMs: 100,
});
try {
  for (const ds of ['first', 'second']) {
    console.log(`=== load ${ds}`);
    await store.replaceGraph(ds, graphOf(ds), turtle(numbered(20, ds)));
    for (const until = Date.now() + 20_000; store.threads() > 0 && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (store.threads() > 0) throw new Error('the store thread was not let go');
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
