// Property: the import read from the CSV's bytes (numbers straight into the Float64Array) gives
// the batches — values bit for bit, -0 included, which columns are packed — and the refusals
// that the text reading gives (descriptorRowBatches, then each cell by its cellReader), on
// random files of numbers in every form the descriptor allows, quoted and unusual cells, blank
// and ragged rows, each cut into chunks at random bytes (inside a character too).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from '../support/fc.ts';
import { descriptorRowBatches, type DescriptorDialect } from '../../lib/csvw/descriptor-rows.ts';
import type { NumberStyle } from '../../lib/csvw/column-format.ts';
import type { ColumnBatch, Field } from '../../lib/datastore/contract.ts';
import { columnBatches } from '../../lib/datastore/import.ts';
import { byteDelimiter, columnBatchesFromBytes } from '../../lib/datastore/import-bytes.ts';
import { numberOfBytes, decimalPoints } from '../../lib/datastore/import-number.ts';
import { cellReader } from '../../lib/datastore/values.ts';

const CELLS = [
  '1.5',
  '-0',
  '-0.000',
  '+.5',
  '5.',
  '1,5',
  ',5',
  '1.234,5',
  '1,234.5',
  ' 12',
  '12 ',
  '1e3',
  '-7.89E-05',
  '',
  '  ',
  '.',
  '-',
  ',',
  'abc',
  'ż',
  '\u00a0',
  '1234567890123456789',
  '123456789012345',
  '0,00000',
  '"0,00000"',
  '"1.5"',
  '"a""b"',
  '"x"y',
  'a"b',
  '"a,b"',
  '"line\nbreak"',
  '2024-02-29',
  'true',
];

const number = fc
  .tuple(fc.constantFrom('', '-', '+'), fc.nat(99999), fc.constantFrom('', '.', ','), fc.nat(999999))
  .map(([sign, whole, point, fraction]) => `${sign}${whole}${point}${point ? fraction : ''}`);
const cell = fc.oneof(fc.constantFrom(...CELLS), number, number);

const STYLES: NumberStyle[] = [
  null,
  { decimalChar: ',', groupChar: null },
  { decimalChar: '.', groupChar: ',' },
  { decimalChar: ',', groupChar: '.' },
  { decimalChar: ',', groupChar: ' ' },
];

const table = fc.record({
  types: fc.array(fc.constantFrom('numeric', 'numeric', 'int', 'text', 'date', 'bool'), {
    minLength: 1,
    maxLength: 4,
  }),
  styles: fc.array(fc.constantFrom(...STYLES), { minLength: 4, maxLength: 4 }),
  delimiter: fc.constantFrom(',', ';', '\\t', '|'),
  newline: fc.constantFrom('\n', '\r\n', '\r'),
  skipRows: fc.nat(2),
  headerRowCount: fc.nat(1),
  rows: fc.array(fc.array(cell, { minLength: 0, maxLength: 5 }), { maxLength: 12 }),
  /** Rows of exactly the table's width first, so that most files have data. */
  square: fc.array(fc.array(fc.oneof(number, fc.constantFrom(...CELLS)), { minLength: 4, maxLength: 4 }), {
    maxLength: 8,
  }),
  cuts: fc.array(fc.nat(400), { maxLength: 6 }),
  bom: fc.boolean(),
  lastNewline: fc.boolean(),
  batchSize: fc.integer({ min: 1, max: 4 }),
});

type Outcome = { batches: unknown[] } | { error: string };

/** Batches as comparable values: -0 named, and whether each column is packed. */
function plain(batch: ColumnBatch): unknown {
  return {
    rows: batch.rows,
    columns: batch.columns.map((column) => ({
      packed: column instanceof Float64Array,
      values: Array.from(column.slice(0, batch.rows), (v) => (Object.is(v, -0) ? '-0' : v)),
    })),
  };
}

async function outcome(batches: AsyncIterable<ColumnBatch>): Promise<Outcome> {
  const out: unknown[] = [];
  try {
    for await (const batch of batches) out.push(plain(batch));
    return { batches: out };
  } catch (error) {
    return { error: `${(error as Error).message} ${JSON.stringify(out)}` };
  }
}

async function* pieces(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const at of [...new Set(cuts)].sort((a, b) => a - b)) {
    if (at <= from || at >= bytes.length) continue;
    yield bytes.slice(from, at);
    from = at;
  }
  yield bytes.slice(from);
}

describe('import from bytes', () => {
  it('gives the batches and refusals of the text reading, on random files cut anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(table, async (t) => {
        const delimiter = t.delimiter === '\\t' ? '\t' : t.delimiter;
        const width = t.types.length;
        const fields = t.types.map((type, i) => ({ id: `c${i}`, type }) as Field);
        const styles = t.styles.slice(0, width);
        const lines = [...t.square.map((row) => row.slice(0, width)), ...t.rows].map((row) =>
          row.join(delimiter),
        );
        const head = Array.from({ length: t.skipRows + t.headerRowCount }, (_, i) => `head ${i}`);
        const text =
          (t.bom ? '\uFEFF' : '') + [...head, ...lines].join(t.newline) + (t.lastNewline ? t.newline : '');
        const bytes = new TextEncoder().encode(text);
        const dialect: DescriptorDialect = {
          skipRows: t.skipRows,
          headerRowCount: t.headerRowCount,
          delimiter: t.delimiter,
          encoding: 'utf-8',
        };
        assert.notEqual(byteDelimiter(dialect), undefined);
        const expected = await outcome(
          columnBatches(
            descriptorRowBatches({ body: pieces(bytes, t.cuts) }, 'x.csv', dialect, width),
            fields,
            'x.csv',
            t.batchSize,
            styles,
          ),
        );
        const actual = await outcome(
          columnBatchesFromBytes(pieces(bytes, t.cuts), 'x.csv', dialect, fields, styles, t.batchSize),
        );
        assert.deepEqual(actual, expected, JSON.stringify(text));
      }),
      { numRuns: 1500 },
    );
  });

  it('reads a number cell from its bytes as cellReader reads its text, or leaves it (NaN)', () => {
    fc.assert(
      fc.property(
        fc.oneof(cell, fc.string({ unit: fc.constantFrom(...'0123456789.,+-eE x'), maxLength: 20 })),
        fc.constantFrom(
          ...STYLES,
          { decimalChar: '0', groupChar: null },
          { decimalChar: ',', groupChar: ',' },
        ),
        fc.constantFrom('numeric', 'int'),
        (text, style, type) => {
          const bytes = new TextEncoder().encode(text);
          const value = numberOfBytes(bytes, 0, bytes.length, decimalPoints(style), type === 'int');
          if (value === value) assert.ok(Object.is(value, cellReader(type, style)(text)), text);
        },
      ),
      { numRuns: 5000 },
    );
    // The Polish Instron export's cell, in a column whose descriptor says decimalChar ",".
    const instron = new TextEncoder().encode('0,00000');
    assert.equal(
      numberOfBytes(instron, 0, 7, decimalPoints({ decimalChar: ',', groupChar: null }), false),
      0,
    );
  });
});
