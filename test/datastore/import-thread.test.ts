// A CSV past its first 4 MB is parsed on a second thread while the inserts run here: the same
// rows and values as a small one read on one thread, the same refusals, nothing kept of a
// refused file; and the embedded store's checkpoints run on their own thread.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openEmbeddedDatastore } from '../../lib/datastore/embedded.ts';
import { importCsv } from '../../lib/datastore/import.ts';
import { DomainError } from '../../lib/process/errors.ts';

const descriptor = {
  dialect: { delimiter: ',', headerRowCount: 1 },
  tableSchema: {
    columns: [
      { titles: 'id', datatype: 'integer' },
      { titles: 'force', datatype: 'double' },
      { titles: 'specimen', datatype: 'string' },
      { titles: 'passed', datatype: 'boolean' },
      { titles: 'day', datatype: 'date' },
    ],
  },
};

interface Source {
  id: number;
  force: number | null;
  specimen: string;
  passed: boolean;
  day: string;
}

/** Rows with their values as written: blanks, quoted commas and quotes, non-ASCII text. */
function sourceRows(count: number): Source[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    force: i % 97 === 0 ? null : ((i * 7919) % 100_000) / 8 - 1000,
    specimen: i % 13 === 0 ? `Prüfkörper "${i}", Zug` : `S-${i.toString(36)}-µ`,
    passed: i % 3 === 0,
    day: `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
  }));
}

function csvOf(rows: Source[], bad?: { row: number; force: string }): string {
  const quote = (text: string) => (/[",]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const lines = rows.map((r, i) =>
    [r.id, bad?.row === i ? bad.force : (r.force ?? ''), quote(r.specimen), r.passed, r.day].join(','),
  );
  return `id,force,specimen,passed,day\n${lines.join('\n')}\n`;
}

/** The text as a stream of byte chunks cut at odd places (inside characters too). */
async function* chunks(text: string, size = 65_537, failAfter?: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += size) {
    if (failAfter !== undefined && at >= failAfter) throw new Error('connection reset');
    yield bytes.subarray(at, at + size);
  }
}

const ROWS = 200_000; // about 8 MB: past the 4 MB read on one thread

describe('datastore import on a parsing thread', () => {
  it('imports a large CSV with every value as written, and tells the rows as it goes', async () => {
    const rows = sourceRows(ROWS);
    const csv = csvOf(rows);
    assert.ok(csv.length > 5 << 20, 'the CSV is past the one-thread size');
    const store = await openEmbeddedDatastore(':memory:');
    try {
      const told: number[] = [];
      const info = await importCsv(store, 'big', descriptor, { body: chunks(csv) }, 'big.csv', {
        onRows: (n) => told.push(n),
      });
      assert.equal(info.count, ROWS);
      assert.deepEqual(
        info.fields.map((f) => f.type),
        ['numeric', 'numeric', 'text', 'bool', 'date'],
      );
      assert.equal(told.at(-1), ROWS);
      assert.ok(told.length >= ROWS / 5000, 'progress after each batch');
      for (let offset = 0; offset < ROWS; offset += 32_000) {
        const page = await store.search({ resource_id: 'big', sort: '_id', limit: 32_000, offset });
        page.records.forEach((record, k) => {
          const source = rows[offset + k] as Source;
          assert.deepEqual(
            { ...record },
            {
              _id: offset + k + 1,
              id: source.id,
              force: source.force,
              specimen: source.specimen,
              passed: source.passed,
              day: source.day,
            },
          );
        });
      }
    } finally {
      await store.close();
    }
  });

  it('refuses a cell past the first MBs by its line, and keeps no table', async () => {
    const csv = csvOf(sourceRows(ROWS), { row: 100_000, force: '12.5 kN' });
    const store = await openEmbeddedDatastore(':memory:');
    try {
      await assert.rejects(
        importCsv(store, 'bad', descriptor, { body: chunks(csv) }, 'bad.csv'),
        (e: unknown) => {
          assert.ok(e instanceof DomainError && e.kind === 'invalid' && e.field === 'csv_url');
          // line 1 is the header, so row 100,000 (0-based) is line 100,002
          assert.match(e.message, /line 100002 of bad\.csv: "12\.5 kN" in column "force" is not numeric/);
          return true;
        },
      );
      await assert.rejects(
        store.info('bad'),
        (e: unknown) => e instanceof DomainError && e.kind === 'not-found',
      );
    } finally {
      await store.close();
    }
  });

  it('a stream that breaks off after the first MBs is a csv_url error, and no table stays', async () => {
    const csv = csvOf(sourceRows(ROWS));
    const store = await openEmbeddedDatastore(':memory:');
    try {
      await assert.rejects(
        importCsv(store, 'cut', descriptor, { body: chunks(csv, 65_536, 5 << 20) }, 'cut.csv'),
        (e: unknown) => {
          assert.ok(e instanceof DomainError && e.kind === 'invalid' && e.field === 'csv_url');
          assert.match(e.message, /cannot read cut\.csv: connection reset/);
          return true;
        },
      );
      await assert.rejects(
        store.info('cut'),
        (e: unknown) => e instanceof DomainError && e.kind === 'not-found',
      );
    } finally {
      await store.close();
    }
  });

  it('checkpoints a large import into the database file on its own thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labld-checkpoint-'));
    const file = join(dir, 'datastore.sqlite');
    const store = await openEmbeddedDatastore(file);
    try {
      await importCsv(store, 'big', descriptor, { body: chunks(csvOf(sourceRows(ROWS * 2))) }, 'big.csv');
      // This connection never checkpoints (wal_autocheckpoint = 0): only the checkpointer's
      // thread moves the pages from the log into the file.
      const deadline = Date.now() + 20_000;
      while (statSync(file).size < 8 << 20 && Date.now() < deadline) await sleep(50);
      assert.ok(statSync(file).size >= 8 << 20, `database file ${statSync(file).size} bytes`);
      const page = await store.search({ resource_id: 'big', limit: 1, sort: 'id desc' });
      assert.equal(page.total, ROWS * 2);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
