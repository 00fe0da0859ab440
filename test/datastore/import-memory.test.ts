// The embedded datastore's memory while it takes rows and makes the preview's indexes: bounded
// by its page cache and sort memory (embedded.ts, CACHE_KIB), not by the table's size. Run in a
// child process of its own, whose peak RSS (VmHWM, test/support/rss.ts) is this work's and nothing else's.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../support/temp.ts';

/** Rows of ~2 KB of text each: a ~120 MB table, and as much to sort for its text index. */
const ROWS = 60_000;
/** The peak above the RSS before the rows: ~95 MB here; with a 64 MiB cache (and sort) ~190. */
const BOUND_MB = 140;

describe('embedded datastore memory', () => {
  it(`stays within ${BOUND_MB} MB of RSS over a ~120 MB table's rows and indexes`, () => {
    const dir = tempDir('labld-import-memory-');
    const script = join(dir, 'rows.ts');
    const embedded = new URL('../../lib/datastore/embedded.ts', import.meta.url).href;
    const rss = new URL('../support/rss.ts', import.meta.url).href;
    writeFileSync(
      script,
      [
        `import { openEmbeddedDatastore } from ${JSON.stringify(embedded)};`,
        `import { peakRssBytes } from ${JSON.stringify(rss)};`,
        `const store = await openEmbeddedDatastore(${JSON.stringify(join(dir, 'datastore.sqlite'))});`,
        `await store.create('r', [{ id: 'note', type: 'text' }, { id: 'n', type: 'int' }]);`,
        `const text = 'x'.repeat(2000);`,
        `function* batches() {`,
        `  for (let b = 0; b < ${ROWS / 1000}; b++)`,
        `    yield Array.from({ length: 1000 }, (_, i) => [text + (b * 1000 + i), i]);`,
        `}`,
        `const before = process.memoryUsage().rss;`,
        `const rows = await store.insert('r', batches());`,
        `await store.indexForPreview('r');`,
        `const peak = peakRssBytes();`,
        `await store.close();`,
        `process.stdout.write(JSON.stringify({ rows, mb: (peak - before) / 2 ** 20 }));`,
      ].join('\n'),
    );
    const env = { ...process.env, NODE_OPTIONS: '' };
    const seen = JSON.parse(execFileSync(process.execPath, [script], { env }).toString('utf8')) as {
      rows: number;
      mb: number;
    };
    assert.equal(seen.rows, ROWS);
    assert.ok(seen.mb < BOUND_MB, `${seen.mb.toFixed(0)} MB above the RSS before the rows`);
  });
});
