// labld's range filter of datastore_search (`filters: {col: {gte, lte}}`, issue 28: the preview's
// min/max on numeric columns) on any store: bounds included, either alone, nulls never in a
// range, next to equality filters and `q`; refused on text and for anything but gte/lte.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Field } from '../../lib/datastore/contract.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { freshStores, type ConformanceEnvironment } from './conformance.ts';

const FIELDS: Field[] = [
  { id: 'specimen', type: 'text' },
  { id: 'force', type: 'numeric' },
  { id: 'cycles', type: 'int' },
  { id: 'tested', type: 'date' },
];
// Force in kN, by hand: P1 10, P2 250.5, P3 400, P4 null, P5 -3.
const ROWS = [
  { specimen: 'P1 steel', force: 10, cycles: 5, tested: '2026-01-01' },
  { specimen: 'P2 steel', force: 250.5, cycles: 50, tested: '2026-02-01' },
  { specimen: 'P3 copper', force: 400, cycles: 500, tested: '2026-03-01' },
  { specimen: 'P4 copper', force: null, cycles: 5000, tested: '2026-04-01' },
  { specimen: 'P5 steel', force: -3, cycles: 1, tested: '2026-05-01' },
];

export function rangeConformance(env: ConformanceEnvironment): void {
  describe(`Datastore range filters (${env.name})`, () => {
    const { open } = freshStores(env);
    const specimens = async (filters: Record<string, unknown>, q?: string) => {
      const s = await open();
      await s.create('tests', FIELDS, ROWS);
      const found = await s.search({ resource_id: 'tests', filters, ...(q ? { q } : {}), sort: 'specimen' });
      return found.records.map((r) => String(r.specimen).slice(0, 2));
    };

    it('keeps the rows within the bounds, bounds included, nulls out', async () => {
      assert.deepEqual(await specimens({ force: { gte: 10, lte: 400 } }), ['P1', 'P2', 'P3']);
      assert.deepEqual(await specimens({ force: { gte: '250.5' } }), ['P2', 'P3']);
      assert.deepEqual(await specimens({ force: { lte: 0 } }), ['P5']);
      assert.deepEqual(await specimens({ cycles: { gte: 50, lte: 5000 } }), ['P2', 'P3', 'P4']);
      assert.deepEqual(await specimens({ tested: { gte: '2026-02-01', lte: '2026-03-15' } }), ['P2', 'P3']);
    });

    it('goes with equality filters and q', async () => {
      assert.deepEqual(await specimens({ force: { gte: 0 } }, 'steel'), ['P1', 'P2']);
      assert.deepEqual(await specimens({ force: { gte: 0 }, cycles: 50 }), ['P2']);
    });

    it('refuses a range on text, an unknown bound, a bound that is not a number', async () => {
      for (const filters of [
        { specimen: { gte: 'P2' } },
        { force: { gt: 1 } },
        { force: { gte: 'lots' } },
        { force: { gte: null } },
      ]) {
        await assert.rejects(specimens(filters), (error: unknown) => {
          assert.ok(error instanceof DomainError, String(error));
          assert.equal(error.kind, 'invalid');
          assert.equal(error.field, 'filters');
          return true;
        });
      }
    });
  });
}
