// Property: the CSV tokenizer reads back the cells of any table written the RFC 4180 way
// (a cell quoted when it holds a delimiter, a quote, a line break or a blank at either end;
// quotes doubled; trimmed as the dialect says), whatever the delimiter, line terminators, trimming and chunk sizes — the
// sliced fast path for plain cells and the character-wise path for the others agree.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from '../support/fc.ts';
import { csvEventBatches, csvEvents } from '../../lib/csvw/csv-reader.ts';
import { DEFAULT_DIALECT, type Dialect } from '../../lib/csvw/dialect.ts';

const cell = fc.string({
  unit: fc.constantFrom('a', 'b', '1', '.', '-', ' ', ',', ';', '\t', '"', '\n', '\r', 'é', '😀'),
  maxLength: 8,
});

function write(rows: string[][], delimiter: string, terminators: string[]): string {
  const quoted = (text: string, alone: boolean) =>
    // An empty row would be a blank line, which a `\r` before it would join into `\r\n`.
    /[",;\t\r\n]/.test(text) || text !== text.trim() || (alone && text === '')
      ? `"${text.replaceAll('"', '""')}"`
      : text;
  return rows
    .map((cells, r) => {
      const line = cells.map((text) => quoted(text, cells.length === 1)).join(delimiter);
      return line + (terminators[r % terminators.length] as string);
    })
    .join('');
}

const trimmed = (text: string, trim: Dialect['trim']): string =>
  trim === 'true'
    ? text.trim()
    : trim === 'start'
      ? text.trimStart()
      : trim === 'end'
        ? text.trimEnd()
        : text;

async function* chunked(text: string, sizes: number[]): AsyncGenerator<string> {
  let i = 0;
  for (let k = 0; i < text.length; k++) {
    const size = sizes[k % sizes.length] as number;
    yield text.slice(i, i + size);
    i += size;
  }
}

describe('CSV tokenizer property', () => {
  it('reads back every cell of a table it is given in any chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 }),
        fc.constantFrom(',', ';', '\t'),
        fc.subarray(['\n', '\r\n', '\r'], { minLength: 1 }),
        fc.constantFrom<Dialect['trim']>('true', 'false', 'start', 'end'),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }),
        async (rows, delimiter, terminators, trim, sizes) => {
          const dialect: Dialect = {
            ...DEFAULT_DIALECT,
            delimiter,
            lineTerminators: ['\r\n', '\n', '\r'],
            headerRowCount: 0,
            trim,
          };
          const text = write(rows, delimiter, terminators);
          const expected = rows.map((cells) => cells.map((c) => trimmed(c, trim)));
          const read: string[][] = [];
          for await (const event of csvEvents(chunked(text, sizes), dialect)) {
            if (event.kind === 'row') read.push(event.cells);
          }
          assert.deepEqual(read, expected);
          const batched: string[][] = [];
          for await (const events of csvEventBatches(chunked(text, sizes), dialect)) {
            for (const event of events) if (event.kind === 'row') batched.push(event.cells);
          }
          assert.deepEqual(batched, expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
