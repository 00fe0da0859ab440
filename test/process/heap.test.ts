// The memory settings a long-running command restarts with (lib/process/heap.ts): the
// semi-space's Node option, glibc malloc's fixed thresholds, and the restart in place itself
// (same pid, the flag and the environment in effect).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { mallocEnv, semiSpaceArgs, youngGenerationMb } from '../../lib/process/heap.ts';
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

  it("sets glibc malloc's thresholds on Linux, an operator's own value winning", () => {
    const fixed = {
      MALLOC_MMAP_THRESHOLD_: '131072',
      MALLOC_TRIM_THRESHOLD_: '131072',
      MALLOC_ARENA_MAX: '2',
    };
    assert.deepEqual(mallocEnv({ PATH: '/bin' }, 'linux'), { PATH: '/bin', ...fixed });
    assert.deepEqual(mallocEnv({ MALLOC_TRIM_THRESHOLD_: '0' }, 'linux'), {
      MALLOC_MMAP_THRESHOLD_: '131072',
      MALLOC_TRIM_THRESHOLD_: '0',
      MALLOC_ARENA_MAX: '2',
    });
    assert.equal(mallocEnv(fixed, 'linux'), undefined);
    assert.equal(mallocEnv({}, 'darwin'), undefined);
  });

  it('restarts the process in place with the flag and the malloc settings, once', () => {
    const script = join(tempDir('labld-heap-'), 'restart.ts');
    const heap = new URL('../../lib/process/heap.ts', import.meta.url).href;
    writeFileSync(
      script,
      [
        `import { execWithMemorySettings } from ${JSON.stringify(heap)};`,
        `const before = process.pid;`,
        `execWithMemorySettings();`,
        `const malloc = [process.env.MALLOC_MMAP_THRESHOLD_, process.env.MALLOC_ARENA_MAX].join(' ');`,
        `process.stdout.write(JSON.stringify({ pid: process.pid, execArgv: process.execArgv, before, malloc }) + '\\n');`,
      ].join('\n'),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, LABLD_SEMI_SPACE_MB: '2', NODE_OPTIONS: '' };
    delete env['MALLOC_MMAP_THRESHOLD_'];
    delete env['MALLOC_TRIM_THRESHOLD_'];
    delete env['MALLOC_ARENA_MAX'];
    const lines = execFileSync(process.execPath, [script], { env }).toString('utf8').trim().split('\n');
    // One line only: the first image was replaced before it printed, and the second did not restart.
    assert.equal(lines.length, 1);
    const seen = JSON.parse(lines[0]!) as { pid: number; execArgv: string[]; before: number; malloc: string };
    assert.equal(seen.pid, seen.before);
    assert.deepEqual(seen.execArgv, ['--max-semi-space-size=2']);
    assert.equal(seen.malloc, process.platform === 'linux' ? '131072 2' : ' ');
  });
});
