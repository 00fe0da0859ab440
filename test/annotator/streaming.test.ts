// One streaming pass: a large table goes through without being kept. The source yields
// generated chunks lazily and samples the heap as it goes (a bound, not a timing).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { annotate } from '../../lib/annotator/index.ts';

const ROW_CHUNK = 2_000;

describe('streaming', () => {
  it('annotates a 40 MB multi-block CSV keeping only the metadata and column counters', async () => {
    const rows = 240_000;
    let peakHeap = 0;
    const baseline = process.memoryUsage().heapUsed;
    async function* source(): AsyncGenerator<Buffer> {
      yield Buffer.from('Prüfer;Bob\nProbenbreite b0;11,4;mm\n\nZeit;Kraft;Weg;Dehnung\ns;kN;mm;%\n');
      for (let start = 0; start < rows; start += ROW_CHUNK) {
        let text = '';
        for (let r = start; r < start + ROW_CHUNK; r++) {
          text += `${r};${(r % 997) / 10};${r % 389},5;0,${r % 100}${' '.repeat(160)}\n`;
        }
        peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
        yield Buffer.from(text);
      }
    }
    const result = await annotate({ open: source, csvUrl: 'https://example.org/big.csv' });
    assert.equal(result.lines, rows + 5);
    assert.ok(result.bytes > 40 * 1024 * 1024);
    assert.equal(result.descriptor.notes.length, 2);
    const table = result.descriptor.tables[0];
    assert.equal(table?.dialect.headerRowCount, 2);
    assert.deepEqual(
      table?.tableSchema.columns.map((c) => c['name']),
      ['GID', 'Zeit', 'Kraft', 'Weg', 'Dehnung'],
    );
    // Kraft is a float column with integral values: pandas' float64 gives double, not integer.
    assert.deepEqual(
      table?.tableSchema.columns.slice(1).map((c) => (c['format'] as { '@id': string })['@id'].split('#')[1]),
      ['integer', 'double', 'double', 'double'],
    );
    assert.ok(
      peakHeap - baseline < 96 * 1024 * 1024,
      `heap grew by ${((peakHeap - baseline) / 1048576).toFixed(0)} MB`,
    );
  });
});

describe('hot path', () => {
  it('gives the same descriptor whether rows arrive in whole blocks or byte by byte', async () => {
    const { annotateBytes } = await import('./support.ts');
    let csv = 'Prüfer;Bob\nBreite;11,4;mm\n\nZeit;Kraft;Weg;Zustand\ns;kN;mm;-\n';
    for (let r = 0; r < 3000; r++) {
      const kraft = r === 1500 ? '' : String(r % 50); // an empty cell turns the int column to double
      const weg = r === 2000 ? 'nan' : `${r % 7},5`;
      const zustand = r === 2500 ? 'Bruch: ja' : 'ok';
      csv += `${r};${kraft};${weg};${zustand}\n`;
    }
    csv += '\nEnde;12:30\n';
    const whole = await annotateBytes(csv, {
      chunk: 1 << 20,
      provenance: { activity: 'urn:x', time: new Date(0) },
    });
    const bytewise = await annotateBytes(csv, {
      chunk: 7,
      provenance: { activity: 'urn:x', time: new Date(0) },
    });
    assert.deepEqual(whole.descriptor, bytewise.descriptor);
    assert.equal(whole.lines, bytewise.lines);
    const formats = whole.descriptor.tables[0]?.tableSchema.columns
      .slice(1)
      .map((c) => (c['format'] as { '@id': string })['@id'].split('#')[1]);
    assert.deepEqual(formats, ['integer', 'double', 'double', 'string']);
    assert.equal(
      whole.descriptor.notes.at(-1)?.['@id'],
      'https://github.com/Mat-O-Lab/CSVToCSVW/raw/main/examples/test.csv/Ende3006',
    );
  });
});

describe('hot path on big chunks', () => {
  it('a 20 MB table handed over as one chunk (the regex engine must not run out of stack)', async () => {
    const { annotateBytes } = await import('./support.ts');
    const rows: string[] = ['Zeit;Kraft;Weg'];
    for (let r = 0; r < 500_000; r++) rows.push(`${r};${r % 97},25;${r % 13},5${' '.repeat(30)}`);
    const bytes = Buffer.from(`${rows.join('\n')}\n`);
    assert.ok(bytes.length > 20 * 1024 * 1024);
    const result = await annotateBytes(bytes, { chunk: bytes.length });
    assert.equal(result.lines, 500_001);
    assert.equal(result.descriptor.tables[0]?.tableSchema.columns.length, 4);
  });
});
