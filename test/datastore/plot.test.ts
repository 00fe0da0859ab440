// The plot's domain functions (lib/datastore/plot.ts): the envelope of x-buckets as the line to
// draw — by hand on small curves, and its properties on random rows bucketed plainly
// (bucket-reference.ts) — and the checks of a plot's parameters and its axis titles.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from '../support/fc.ts';
import type { Field } from '../../lib/datastore/contract.ts';
import {
  axisLabel,
  bucketsFor,
  envelope,
  plotField,
  plotPoints,
  type Bucket,
} from '../../lib/datastore/plot.ts';
import { unitSymbol } from '../../lib/annotator/units.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { referenceBuckets } from './bucket-reference.ts';

const b = (x0: number, x1: number, y0: number, y1: number, n = 2): Bucket => ({ n, x0, x1, y0, y1 });

test('a rising curve is drawn low then high in each bucket, a falling one high then low', () => {
  assert.deepEqual(envelope([b(0, 1, 0, 1), b(2, 3, 2, 3)]), { x: [0, 1, 2, 3], y: [0, 1, 2, 3] });
  assert.deepEqual(envelope([b(0, 1, 2, 3), b(2, 3, 0, 1)]), { x: [0, 1, 2, 3], y: [3, 2, 1, 0] });
  // A peak: up to the top bucket, then down from it.
  assert.deepEqual(envelope([b(0, 1, 0, 1), b(2, 3, 1, 5), b(4, 5, 0, 1)]), {
    x: [0, 1, 2, 3, 4, 5],
    y: [0, 1, 1, 5, 1, 0],
  });
});

test('a bucket of one row, or of rows all at one point, is one point; no buckets, no points', () => {
  assert.deepEqual(envelope([b(1, 1, 7, 7, 1), b(2, 2, 8, 8, 5)]), { x: [1, 2], y: [7, 8] });
  assert.deepEqual(envelope([]), { x: [], y: [] });
});

const rows = fc.array(
  fc.tuple(
    fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { freq: 10 }),
    fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { freq: 10 }),
  ),
  { maxLength: 2000 },
);

test('property: at most two points per bucket, x never falls, every bucket keeps its lowest and highest y', () => {
  fc.assert(
    fc.property(rows, fc.integer({ min: 1, max: 300 }), (data, count) => {
      const buckets = referenceBuckets(data, count);
      const line = envelope(buckets);
      assert.equal(line.x.length, line.y.length);
      assert.ok(line.x.length <= 2 * Math.min(count, buckets.length));
      for (let i = 1; i < line.x.length; i++) assert.ok(line.x[i - 1]! <= line.x[i]!, `x falls at ${i}`);
      for (const bucket of buckets) {
        const inside = line.y.filter((_, i) => line.x[i]! >= bucket.x0 && line.x[i]! <= bucket.x1);
        assert.ok(inside.includes(bucket.y0) && inside.includes(bucket.y1));
        // Nothing drawn inside a bucket lies outside its y range.
        for (const y of inside) assert.ok(y >= bucket.y0 && y <= bucket.y1);
      }
      const ys = data.flatMap(([x, y]) => (x !== null && y !== null ? [y] : []));
      if (ys.length > 0) {
        assert.equal(Math.min(...line.y), Math.min(...ys));
        assert.equal(Math.max(...line.y), Math.max(...ys));
      }
    }),
    { numRuns: 200 },
  );
});

const FIELDS: Field[] = [
  { id: 'Dehnung', type: 'numeric', info: { unit: 'http://qudt.org/vocab/unit/MilliM' } },
  { id: 'Standardkraft', type: 'numeric', info: { label: 'N', unit: 'http://qudt.org/vocab/unit/KiloN' } },
  { id: 'Datum', type: 'date' },
  { id: 'Zähler', type: 'int', info: { unit: 'http://example.org/units/Stueck' } },
];

test('axis titles: the header with the QUDT unit symbol; an unknown unit by its last part; none without', () => {
  assert.equal(axisLabel(FIELDS[0]!, unitSymbol), 'Dehnung [mm]');
  assert.equal(axisLabel(FIELDS[1]!, unitSymbol), 'Standardkraft [kN]');
  assert.equal(axisLabel(FIELDS[3]!, unitSymbol), 'Zähler [Stueck]');
  assert.equal(axisLabel(FIELDS[2]!, unitSymbol), 'Datum');
});

function refused(fn: () => unknown, field: string, words: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, 'invalid');
    assert.equal(error.field, field);
    assert.match(error.message, words);
    return true;
  });
}

test('parameters: x and y must name numeric columns, points a whole number from 10 to 10000', () => {
  assert.equal(plotField(FIELDS, 'Dehnung', 'x'), FIELDS[0]);
  refused(() => plotField(FIELDS, 'Datum', 'y'), 'y', /holds date, not numbers/);
  refused(() => plotField(FIELDS, 'Kraft', 'x'), 'x', /not a column/);
  refused(() => plotField(FIELDS, undefined, 'x'), 'x', /numeric column/);
  assert.equal(plotPoints(undefined), 2000);
  assert.equal(plotPoints('500'), 500);
  assert.equal(bucketsFor(2000), 1000);
  for (const bad of ['9', '10001', '1.5', '-20', 'many', 1e9])
    refused(() => plotPoints(bad), 'points', /10 to 10000/);
});
