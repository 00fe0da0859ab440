// Property: a cell's text is read as a number exactly as the decimal grammar and Number() say
// (the fast digit-by-digit path included: its result must be bit-identical, -0 included).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from '../support/fc.ts';
import { cellReader, readValue } from '../../lib/datastore/values.ts';

/** What a numeric cell means, written from the contract: blank is null, the grammar's decimals. */
function expected(type: 'numeric' | 'int', text: string): number | null | undefined {
  if (text.trim() === '') return null;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text.trim())) return undefined;
  const number = Number(text);
  if (!Number.isFinite(number)) return undefined;
  return type === 'int' && !Number.isSafeInteger(number) ? undefined : number;
}

const digits = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: max });

const decimal = fc
  .tuple(
    fc.constantFrom('', '+', '-'),
    digits(20),
    fc.boolean(),
    digits(25),
    fc.constantFrom('', 'e5', 'E-3'),
  )
  .map(
    ([sign, whole, point, fraction, exponent]) => `${sign}${whole}${point ? '.' : ''}${fraction}${exponent}`,
  );

const formatted = fc
  .tuple(fc.double({ noNaN: true }), fc.integer({ min: 0, max: 20 }))
  .chain(([d, k]) => fc.constantFrom(String(d), d.toFixed(k), d.toExponential(), d.toPrecision(k + 1)));

const noise = fc.string({ unit: fc.constantFrom(...'0123456789.+-eE x\t'), maxLength: 12 });

describe('datastore values: numbers from text', () => {
  it('reads decimal text as the grammar and Number() do, for numeric and int fields', () => {
    fc.assert(
      fc.property(fc.oneof(decimal, formatted, noise), fc.constantFrom('numeric', 'int'), (text, type) => {
        assert.ok(
          Object.is(readValue(type as 'numeric' | 'int', text), expected(type as 'numeric' | 'int', text)),
          text,
        );
      }),
      { numRuns: 5000 },
    );
  });

  it('reads a CSV cell by its column’s reader as the contract says (the import’s path)', () => {
    fc.assert(
      fc.property(
        fc.oneof(decimal, formatted, noise),
        fc.constantFrom('numeric', 'float', 'int'),
        (text, type) => {
          const want = expected(type === 'int' ? 'int' : 'numeric', text);
          assert.ok(Object.is(cellReader(type as 'numeric' | 'float' | 'int')(text), want), text);
        },
      ),
      { numRuns: 3000 },
    );
    // A text column keeps a cell as written, blanks included; only an empty cell is null.
    assert.equal(cellReader('text')(''), null);
    assert.equal(cellReader('text')('  '), '  ');
    assert.equal(cellReader('text')('1.50'), '1.50');
    assert.equal(cellReader('date')('2024-02-30'), undefined);
    assert.equal(cellReader('date')(' 2024-02-29 '), '2024-02-29');
    // Year first with slashes, as Japanese loggers write dates (the annotator says dateTime).
    assert.equal(cellReader('timestamp')('2019/11/01 17:06:57'), '2019-11-01T17:06:57');
    assert.equal(cellReader('date')('2019/11/01'), '2019-11-01');
    assert.equal(cellReader('date')('2019/02/30'), undefined);
    assert.equal(cellReader('date')('2019/11/01x'), undefined);
    assert.equal(cellReader('date')('01/11/2019'), undefined);
    assert.equal(cellReader('bool')('1'), true);
  });

  it('reads the cases at the fast path’s edges', () => {
    const cases: [string, number | null | undefined][] = [
      ['-0.000', -0],
      ['+.5', 0.5],
      ['1.', 1],
      ['.', undefined],
      ['-', undefined],
      ['0.1', 0.1],
      ['123456789012345', 123456789012345],
      ['1234567890123456789', 1234567890123456768], // the nearest double
      ['0.0000000000000000000001', 1e-22],
      ['0.00000000000000000000001', 1e-23],
      ['9007199254740993', 9007199254740992],
      ['0x10', undefined],
      ['Infinity', undefined],
      ['1e999', undefined],
      [' 7 ', 7],
      ['  ', null],
      ['1.2.3', undefined],
    ];
    for (const [text, value] of cases) assert.ok(Object.is(readValue('numeric', text), value), text);
  });
});
