// Datastore.buckets (the SQL of lib/datastore/buckets-sql.ts) in the contract suite, so that it
// runs on SQLite and on PostgreSQL: the same buckets as computed plainly from the rows, on
// random tables with nulls; a column that is not there is refused naming x or y.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from '../support/fc.ts';
import type { Datastore, Field } from '../../lib/datastore/contract.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { referenceBuckets } from './bucket-reference.ts';

const FIELDS: Field[] = [
  { id: 'Dehnung', type: 'numeric' },
  { id: 'Standardkraft', type: 'numeric' },
  { id: 'Probe', type: 'text' },
];

export function bucketCases(open: () => Promise<Datastore>): void {
  it('buckets: the same slices as computed from the rows (random tables with nulls)', async () => {
    const s = await open();
    const row = fc.tuple(
      fc.option(fc.integer({ min: -500, max: 500 }), { freq: 8 }),
      fc.option(
        fc.integer({ min: -4000, max: 4000 }).map((n) => n / 4),
        { freq: 8 },
      ),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { maxLength: 300 }),
        fc.integer({ min: 1, max: 50 }),
        async (rows, count) => {
          const resource = `plot-${run++}`;
          await s.create(
            resource,
            FIELDS,
            rows.map(([x, y]) => [x, y, 'p']),
          );
          const found = await s.buckets(resource, 'Dehnung', 'Standardkraft', count);
          const expected = referenceBuckets(rows, count);
          assert.deepEqual(found.buckets, expected);
          assert.equal(found.rows, rows.filter(([x, y]) => x !== null && y !== null).length);
          await s.delete(resource);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('buckets: one x for every row is one slice; a name that is no column is refused naming x or y', async () => {
    const s = await open();
    await s.create('flat', FIELDS, [
      [3, 1, 'a'],
      [3, 5, 'b'],
      [3, 2, 'c'],
    ]);
    assert.deepEqual((await s.buckets('flat', 'Dehnung', 'Standardkraft', 1000)).buckets, [
      { n: 3, x0: 3, x1: 3, y0: 1, y1: 5 },
    ]);
    for (const [x, y, field] of [
      ['nope', 'Standardkraft', 'x'],
      ['Dehnung', '"; DROP TABLE x; --', 'y'],
    ] as const) {
      await assert.rejects(s.buckets('flat', x, y, 10), (error: unknown) => {
        assert.ok(
          error instanceof DomainError && error.kind === 'invalid' && error.field === field,
          String(error),
        );
        return true;
      });
    }
  });
}
