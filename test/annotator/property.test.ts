// Property: whatever the bytes, annotate() gives a descriptor or a DomainError (4xx) —
// never another exception, and the descriptor is plain JSON.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from '../support/fc.ts';
import { isDomainError } from '../../lib/process/errors.ts';
import { statusOf } from '../../lib/process/http-status.ts';
import { annotateBytes, outcomeOf } from './support.ts';

async function descriptorOrDomainError(bytes: Buffer | string): Promise<void> {
  try {
    const { descriptor } = await annotateBytes(bytes, { chunk: 97 });
    assert.deepEqual(JSON.parse(JSON.stringify(descriptor)), descriptor);
    for (const table of descriptor.tables) assert.ok(table.tableSchema.columns.length > 1);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    assert.ok(statusOf(error.kind) < 500);
  }
}

const cell = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '1',
    '0,5',
    '-2.5e3',
    '17',
    'True',
    'nan',
    '"q;uoted"',
    '"',
    'mm',
    '[kN]',
    '°C',
    'µm',
    'μm',
  ),
  fc.constantFrom(
    '20.02.2008',
    '12:30',
    'https://example.org/x',
    'Zeit:',
    'Kamera 1',
    'N/mm²',
    'ä',
    '0x1F',
    '(',
    ')',
  ),
  fc.string({ maxLength: 8 }),
);
const separator = fc.constantFrom(';', ',', '\t', '|', ':  ', ': ');
const row = fc
  .tuple(fc.array(cell, { minLength: 1, maxLength: 6 }), separator)
  .map(([cells, sep]) => cells.join(sep));
const csvText = fc
  .tuple(
    fc.array(fc.oneof(row, fc.constant('')), { minLength: 0, maxLength: 40 }),
    fc.constantFrom('\n', '\r\n'),
  )
  .map(([rows, eol]) => rows.join(eol) + eol);

describe('annotate on arbitrary input', () => {
  it('random bytes: a descriptor or a DomainError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), (bytes) =>
        descriptorOrDomainError(Buffer.from(bytes)),
      ),
      {
        numRuns: 300,
      },
    );
  });

  it('random CSV-shaped text: a descriptor or a DomainError', async () => {
    await fc.assert(
      fc.asyncProperty(csvText, (text) => descriptorOrDomainError(text)),
      { numRuns: 400 },
    );
  });

  it('a negative zero in the metadata reads back from JSON as it was made (found by the property)', async () => {
    for (const text of [
      ' ;-0\n20.02.2008\n',
      '[kN];-0\n17\n',
      ' ;-0.0\n20.02.2008\n',
      ' ;-0,0\n20.02.2008\n',
    ]) {
      const { descriptor } = await annotateBytes(text, { chunk: 97 });
      const values = JSON.stringify(descriptor).match(/"@value":-?0[,}]/g) ?? [];
      assert.ok(values.length > 0, `a zero value in the notes of ${JSON.stringify(text)}`);
      await descriptorOrDomainError(text);
    }
  });

  it('random CSV-shaped text in a legacy encoding', async () => {
    await fc.assert(
      fc.asyncProperty(csvText, (text) => descriptorOrDomainError(Buffer.from(text, 'latin1'))),
      { numRuns: 100 },
    );
  });

  it('the hot paths (row regex, row scan, whole blocks) agree with the general code', async () => {
    const cellFor = fc.constantFrom(
      '1',
      '2,5',
      '3.5',
      '',
      'nan',
      'x',
      '1e3',
      ' 7 ',
      'a:b',
      '"q"',
      '12:30',
      '\t',
      ' ',
    );
    const table = fc
      .tuple(
        fc.array(cellFor, { minLength: 3, maxLength: 3 }),
        fc.nat({ max: 300 }),
        fc.constantFrom(';', '\t', '|', ','),
        fc.constantFrom('\n', '\r\n'),
      )
      .map(([odd, at, sep, eol]) => {
        const decimal = sep === ',' ? '.' : ',';
        let csv = `Prüfer${sep}Bob\n\nA${sep}B${sep}C\n`;
        for (let r = 0; r < 400; r++) {
          csv += r === at ? `${odd.join(sep)}\n` : `${r}${sep}${r % 9}${decimal}5${sep}${r % 4}\n`;
        }
        return csv.replaceAll('\n', eol);
      });
    await fc.assert(
      fc.asyncProperty(table, async (text) => {
        const whole = await outcomeOf(text, 1 << 20);
        assert.deepEqual(whole, await outcomeOf(text, 5));
        // The general code alone (no row regex, no row scan) gives the same descriptor.
        assert.deepEqual(whole, await outcomeOf(text, 1 << 20, false));
      }),
      { numRuns: 150 },
    );
  });
});
