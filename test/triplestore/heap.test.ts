// The embedded store's V8 flag (lib/triplestore/embedded/heap.ts): set only on the V8 versions
// that have it and need it, and where set, a WebAssembly memory growing in small steps (as
// oxigraph's does while loading) starts a fraction of the mark-compacts it does by default.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { needsExternalMemoryFlag } from '../../lib/triplestore/embedded/heap.ts';

const run = promisify(execFile);
const CHILD = new URL('./heap-child.ts', import.meta.url).pathname;

async function majorCollections(mode: 'flag' | 'default'): Promise<number> {
  const { stdout } = await run(process.execPath, [CHILD, mode]);
  return Number(stdout.trim());
}

describe('embedded triple store: V8 external memory flag', () => {
  it('is asked for from V8 13.0 up to 14.8, where it became the default and was removed', () => {
    for (const version of ['13.0.245.25', '13.6.233.17-node.37', '14.6.202.9', '14.7.0'])
      assert.equal(needsExternalMemoryFlag(version), true, version);
    for (const version of ['12.4.254.21-node.33', '14.8.0', '14.10.1', '15.0.0'])
      assert.equal(needsExternalMemoryFlag(version), false, version);
  });

  it('a WebAssembly memory grown 2,000 times starts at most a quarter of the mark-compacts', async () => {
    const [withFlag, without] = await Promise.all([majorCollections('flag'), majorCollections('default')]);
    assert.ok(
      withFlag <= Math.max(4, without / 4),
      `${withFlag} mark-compacts with the flag, ${without} without`,
    );
  });
});
