// The RML engine's CSV parser (lib/rml/csv.ts) against the records it was given: random records
// (cells with commas, quotes, LF, CRLF and CR inside quotes, empty cells), written as RFC 4180
// text here (a cell quoted when it must be, LF or CRLF between records, with or without a last
// line break), pushed in random chunks, come back as they were. Lines without quotes take the
// bulk path, records with quotes the slow one; one text mixes both.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../support/fc.ts';
import { CsvParser, DEFAULT_DIALECT } from '../../lib/rml/csv.ts';
import { RmlError } from '../../lib/rml/index.ts';

const cell = fc.oneof(
  fc.stringMatching(/^[a-z0-9 ]{0,6}$/),
  fc
    .array(fc.constantFrom('a', ',', '"', '\n', '\r\n', ' ', 'é'), { maxLength: 6 })
    .map((parts) => parts.join('')),
);
// A record of one empty cell is a blank row, which the parser skips (CSVW skipBlankRows).
const record = fc.array(cell, { minLength: 1, maxLength: 5 }).filter((r) => !(r.length === 1 && r[0] === ''));

function written(cellText: string): string {
  return /[",\r\n]/.test(cellText) ? `"${cellText.replaceAll('"', '""')}"` : cellText;
}

function parsed(chunks: string[]): string[][] {
  const rows: string[][] = [];
  const parser = new CsvParser(DEFAULT_DIALECT, (row) => rows.push(row));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return rows;
}

/** `text` cut at the given fractions of its length. */
function cut(text: string, at: number[]): string[] {
  const offsets = [...new Set(at.map((f) => Math.floor(f * text.length)))].sort((a, b) => a - b);
  return [...offsets, text.length].map((end, i) => text.slice(i === 0 ? 0 : offsets[i - 1], end));
}

test('random records written as RFC 4180 text come back as they were, in any chunking', async () => {
  await fc.assert(
    fc.property(
      fc.array(record, { minLength: 1, maxLength: 12 }),
      fc.constantFrom('\n', '\r\n'),
      fc.boolean(),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
      (records, eol, lastBreak, at) => {
        const text = records.map((r) => r.map(written).join(',')).join(eol) + (lastBreak ? eol : '');
        assert.deepEqual(parsed(cut(text, at)), records);
      },
    ),
  );
});

test('more than a window of lines without quotes, chunked, quoted records between them', () => {
  const records: string[][] = [];
  for (let i = 0; i < 150_000; i += 1) {
    records.push(i % 7919 === 0 ? [String(i), 'a "quoted", cell\nover lines'] : [String(i), `V_${i}`]);
  }
  const text = `${records.map((r) => r.map(written).join(',')).join('\r\n')}\r\n`;
  assert.ok(text.length > 2 ** 20, 'the text is longer than a window');
  const chunks = cut(text, [0.21, 0.5, 0.73]);
  assert.deepEqual(parsed(chunks), records);
  assert.deepEqual(parsed([text]), records);
});

test('an error after lines without quotes names the right line', () => {
  assert.throws(
    () => parsed(['a,b\n1,2\n', '3,4\n"x']),
    (error: unknown) =>
      error instanceof RmlError && /CSV line 4: a quoted cell is not closed/.test(error.message),
  );
});

test('an empty quoteChar quotes nothing (it made the parser loop for ever)', () => {
  const rows: string[][] = [];
  const parser = new CsvParser({ ...DEFAULT_DIALECT, quote: '' }, (row) => rows.push(row));
  parser.push('a,"b\n1,');
  parser.push('2\n');
  parser.end();
  assert.deepEqual(rows, [
    ['a', '"b'],
    ['1', '2'],
  ]);
});
