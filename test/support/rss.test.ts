// peakRssBytes is a process's own peak: a child spawned by a parent holding much memory does not
// report the parent's (as getrusage's ru_maxrss does on Linux, see rss.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { peakRssBytes, rssOf } from './rss.ts';

const MB = 2 ** 20;

describe('peak RSS', () => {
  it('of a child is its own, not its parent’s at the spawn', () => {
    const held = Buffer.alloc(384 * MB, 1); // touched: resident in this process
    assert.ok(rssOf(process.pid, 'VmRSS') >= 384 * MB);
    const rss = new URL('./rss.ts', import.meta.url).href;
    const script = `import { peakRssBytes } from ${JSON.stringify(rss)}; process.stdout.write(String(peakRssBytes()));`;
    const child = Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
    );
    assert.ok(held.length > 0);
    assert.ok(child > 10 * MB && child < 200 * MB, `the child reported ${(child / MB).toFixed(0)} MB`);
  });

  it('of this process is at least its resident set before', () => {
    // In this order: read after, the resident set may have grown past the peak read before it.
    const before = rssOf(process.pid, 'VmRSS');
    assert.ok(peakRssBytes() >= before);
  });

  it('of a process that is gone is 0', () => {
    assert.equal(rssOf(2 ** 22 + 1, 'VmHWM'), 0);
  });
});
