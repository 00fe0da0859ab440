// Wide tables (issue 25, finding 7): up to LABLD_MAX_COLUMNS fields on each store, although
// SQLite takes 2,000 columns a table and PostgreSQL 1,600. Every search feature works on the
// fields past the stored columns as on the first: values back with their types, sort, filters,
// q, chosen fields, a filtered delete, buckets; more fields than the limit are refused naming
// `fields`.
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Field, FieldType, InputRecord } from '../../lib/datastore/contract.ts';
import { maxColumns } from '../../lib/limits.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { freshStores, type ConformanceEnvironment } from './conformance.ts';

const TYPES: FieldType[] = ['text', 'numeric', 'int', 'bool', 'date', 'timestamp', 'float'];

/** `width` fields `f0 …`, their types in turn. */
function fieldsOf(width: number): Field[] {
  return Array.from({ length: width }, (_, i) => ({
    id: `f${i}`,
    type: TYPES[i % TYPES.length] as FieldType,
  }));
}

/** Row `r`'s value of field `i` (null on some), as the store returns it. */
function valueAt(r: number, i: number): string | number | boolean | null {
  if ((r + i) % 11 === 0) return null;
  switch (TYPES[i % TYPES.length]) {
    case 'text':
      return `row ${r} word${i} ${r % 2 === 0 ? 'even' : 'odd'}`;
    case 'numeric':
      return ((r * 7919 + i) % 1000) / 4 - 50;
    case 'int':
      return r * 1000 + i;
    case 'bool':
      return (r + i) % 2 === 0;
    case 'date':
      return `2026-0${1 + (r % 9)}-1${r % 10}`;
    case 'timestamp':
      return `2026-11-2${r % 10}T10:0${r % 10}:00.5`;
    default:
      return r / 3 + i;
  }
}

function rowsOf(count: number, width: number): InputRecord[] {
  return Array.from({ length: count }, (_, r) => Array.from({ length: width }, (_, i) => valueAt(r, i)));
}

export function wideTables(env: ConformanceEnvironment): void {
  describe(`Datastore wide tables (${env.name})`, () => {
    const { open } = freshStores(env);

    it('2,001 fields of every type: records back whole, sort, filters, q, fields, delete, buckets', async () => {
      const width = 2001;
      const s = await open();
      const rows = 30;
      await s.create('wide', fieldsOf(width), rowsOf(rows, width));
      assert.equal((await s.info('wide')).count, rows);
      const all = await s.search({ resource_id: 'wide', limit: rows });
      assert.equal(all.total, rows);
      assert.equal(all.fields.length, width + 1);
      all.records.forEach((record, r) => {
        for (let i = 0; i < width; i++) assert.deepEqual(record[`f${i}`], valueAt(r, i), `row ${r}, f${i}`);
      });
      // f1996 is numeric, far past any database's columns: sorted as numbers, nulls last.
      const col = 'f1996';
      const expected = Array.from({ length: rows }, (_, r) => valueAt(r, 1996) as number | null);
      const sorted = await s.search({ resource_id: 'wide', sort: `${col} desc`, fields: [col], limit: rows });
      const desc = [...expected].sort((a, b) => (a === null ? -1 : b === null ? 1 : b - a));
      assert.deepEqual(
        sorted.records.map((r) => r[col]),
        desc,
      );
      // Filters on a text, a bool and a timestamp field past the columns.
      const filtered = await s.search({
        resource_id: 'wide',
        filters: {
          f1995: valueAt(3, 1995),
          f1998: valueAt(3, 1998),
          f2000: [valueAt(3, 2000), valueAt(5, 2000)],
        },
        fields: ['_id'],
      });
      assert.deepEqual(
        filtered.records.map((r) => r._id),
        [4],
      );
      const nulls = await s.search({ resource_id: 'wide', filters: { f1996: null }, fields: ['_id'] });
      assert.deepEqual(
        nulls.records.map((r) => r._id),
        expected.flatMap((v, r) => (v === null ? [r + 1] : [])),
      );
      // A word that is only in field f1995 (text), and the same per column.
      const q = await s.search({ resource_id: 'wide', q: 'WORD1995 even', fields: ['_id'], limit: rows });
      const withWord = (r: number) => valueAt(r, 1995) !== null && r % 2 === 0;
      assert.deepEqual(
        q.records.map((r) => r._id),
        Array.from({ length: rows }, (_, r) => r).flatMap((r) => (withWord(r) ? [r + 1] : [])),
      );
      const perColumn = await s.search({ resource_id: 'wide', q: { f1995: 'odd' }, include_total: true });
      assert.equal(
        perColumn.total,
        rowsOf(rows, width).filter((_, r) => r % 2 === 1 && valueAt(r, 1995) !== null).length,
      );
      // Buckets of two numeric fields past the columns (f1997 is int).
      const plotted = await s.buckets('wide', 'f1996', 'f1997', 4);
      assert.equal(plotted.rows, expected.filter((v, r) => v !== null && valueAt(r, 1997) !== null).length);
      // A filtered delete on a field past the columns.
      const deleted = await s.delete('wide', { f1995: valueAt(3, 1995) });
      assert.equal(deleted, 1);
      assert.equal((await s.info('wide')).count, rows - 1);
    });

    it(`16,000 fields (under LABLD_MAX_COLUMNS): created, filled, searched and sorted on the last`, async () => {
      const width = 16_000;
      const s = await open();
      await s.create('widest', fieldsOf(width));
      assert.equal(await s.insert('widest', [rowsOf(5, width)]), 5);
      const last = `f${width - 1}`; // a date (15999 % 7 = 4), none null in these rows
      const found = await s.search({ resource_id: 'widest', sort: `${last} desc`, limit: 2 });
      assert.deepEqual(
        found.records.map((r) => r[last]),
        [valueAt(4, width - 1), valueAt(3, width - 1)],
      );
      assert.equal(Object.keys(found.records[0] ?? {}).length, width + 1);
    });

    it('a row of 600 long texts fits (PostgreSQL keeps 8 KB rows: the stored columns must be few)', async () => {
      const s = await open();
      const width = 600;
      const fields = Array.from({ length: width }, (_, i): Field => ({ id: `t${i}`, type: 'text' }));
      // Random, so that no compression keeps them in the row: each is stored apart, behind a pointer.
      const row = Array.from({ length: width }, () => randomBytes(1600).toString('base64'));
      await s.create('long', fields, [row]);
      const [back] = (await s.search({ resource_id: 'long' })).records;
      assert.deepEqual(
        fields.map((f) => back?.[f.id]),
        row,
      );
    });

    it('more fields than LABLD_MAX_COLUMNS are refused naming fields, not a database error', async () => {
      const s = await open();
      await assert.rejects(s.create('too-wide', fieldsOf(maxColumns() + 1)), (error: unknown) => {
        assert.ok(error instanceof DomainError, String(error));
        assert.equal(error.field, 'fields');
        assert.match(error.message, /LABLD_MAX_COLUMNS/);
        return true;
      });
    });
  });
}
