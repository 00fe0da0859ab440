// Issue "Large files": a 1 GiB multi-block CSV is annotated in one streaming pass while the
// process stays under 300 MB RSS. node --test runs each test file in its own process, so the
// RSS sampled here is this pass's (plus the test runner's). The bytes are generated lazily: a
// block of rows handed over again and again in 256 KiB slices, as a file stream would.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { annotate } from '../../lib/annotator/index.ts';

const GIB = 1024 * 1024 * 1024;
const SLICE = 256 * 1024;
const RSS_LIMIT = 300 * 1024 * 1024;

describe('large files', () => {
  it('annotates 1 GiB in one pass under 300 MB RSS', async (t) => {
    const head = Buffer.from(
      'Prüfer;Bob\nProbenbreite b0;11,4;mm\nTemperatur;23;°C\n\n' +
        'Zeit;Kraft;Weg;Dehnung;Spannung\ns;kN;mm;%;MPa\n',
    );
    let rows = '';
    for (let r = 0; rows.length < 1024 * 1024; r++) {
      rows += `${r};${(r % 997) / 10};${r % 389},5;0,${r % 100};${r % 1000},25\n`;
    }
    const block = Buffer.from(rows);
    const blockLines = rows.split('\n').length - 1;
    const repeats = Math.ceil(GIB / block.length);
    let peakRss = process.memoryUsage.rss();
    async function* source(): AsyncGenerator<Buffer> {
      yield head;
      for (let i = 0; i < repeats; i++) {
        for (let at = 0; at < block.length; at += SLICE) yield block.subarray(at, at + SLICE);
        if (i % 16 === 0) peakRss = Math.max(peakRss, process.memoryUsage.rss());
      }
    }
    const result = await annotate({ open: source, csvUrl: 'https://example.org/gigabyte.csv' });
    peakRss = Math.max(peakRss, process.memoryUsage.rss());

    t.diagnostic(
      `${result.bytes} bytes, ${result.lines} lines, peak RSS ${(peakRss / 1048576).toFixed(0)} MB`,
    );
    assert.ok(result.bytes >= GIB, `${result.bytes} bytes`);
    assert.equal(result.lines, 6 + repeats * blockLines);
    assert.equal(result.descriptor.notes.length, 3);
    const table = result.descriptor.tables[0];
    assert.equal(table?.dialect.headerRowCount, 2);
    assert.deepEqual(
      table?.tableSchema.columns.map((c) => c['name']),
      ['GID', 'Zeit', 'Kraft', 'Weg', 'Dehnung', 'Spannung'],
    );
    assert.ok(peakRss < RSS_LIMIT, `peak RSS ${(peakRss / 1048576).toFixed(0)} MB`);
  });
});
