// The semi-space setting (lib/process/heap.ts): which Node options a long-running command
// restarts with, and the restart in place itself (same pid, the flag in effect).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { semiSpaceArgs, youngGenerationMb } from '../../lib/process/heap.ts';
import { tempDir } from '../support/temp.ts';

describe('semi-space setting', () => {
  it('adds --max-semi-space-size from LABLD_SEMI_SPACE_MB (default 4) before the other Node options', () => {
    assert.deepEqual(semiSpaceArgs([], {}), ['--max-semi-space-size=4']);
    assert.deepEqual(semiSpaceArgs(['--inspect'], { LABLD_SEMI_SPACE_MB: '8' }), [
      '--max-semi-space-size=8',
      '--inspect',
    ]);
  });

  it("leaves an operator's own flag alone, and 0 leaves the size to V8", () => {
    assert.equal(semiSpaceArgs(['--max-semi-space-size=16'], {}), undefined);
    assert.equal(semiSpaceArgs(['--max-semi-space-size', '16'], {}), undefined);
    assert.equal(
      semiSpaceArgs([], { NODE_OPTIONS: '--enable-source-maps --max-semi-space-size=2' }),
      undefined,
    );
    assert.equal(semiSpaceArgs([], { LABLD_SEMI_SPACE_MB: '0' }), undefined);
    assert.throws(() => semiSpaceArgs([], { LABLD_SEMI_SPACE_MB: 'big' }), /LABLD_SEMI_SPACE_MB/);
  });

  it("gives a worker three semi-spaces' worth of young generation", () => {
    assert.equal(youngGenerationMb(4), 12);
    assert.equal(youngGenerationMb(0), undefined);
  });

  it('restarts the process in place with the flag, once', () => {
    const script = join(tempDir('labld-heap-'), 'restart.ts');
    const heap = new URL('../../lib/process/heap.ts', import.meta.url).href;
    writeFileSync(
      script,
      [
        `import { execWithSemiSpace } from ${JSON.stringify(heap)};`,
        `const before = process.pid;`,
        `execWithSemiSpace();`,
        `process.stdout.write(JSON.stringify({ pid: process.pid, execArgv: process.execArgv, before }) + '\\n');`,
      ].join('\n'),
    );
    const env = { ...process.env, LABLD_SEMI_SPACE_MB: '2', NODE_OPTIONS: '' };
    const lines = execFileSync(process.execPath, [script], { env }).toString('utf8').trim().split('\n');
    // One line only: the first image was replaced before it printed, and the second did not restart.
    assert.equal(lines.length, 1);
    const seen = JSON.parse(lines[0]!) as { pid: number; execArgv: string[]; before: number };
    assert.equal(seen.pid, seen.before);
    assert.deepEqual(seen.execArgv, ['--max-semi-space-size=2']);
  });
});
