// A CSV resource into the datastore typed by its CSVW descriptor: the seed examples of the
// original annotator (two header rows, units, the GID column that is not in the file).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, readFileSync } from 'node:fs';
import { openEmbeddedDatastore } from '../../lib/datastore/embedded.ts';
import { descriptorTable, mainTableIndex } from '../../lib/datastore/fields.ts';
import { importCsv } from '../../lib/datastore/import.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { sharedDir } from '../support/shared.ts';
import { countLines } from '../../lib/line-breaks.ts';
import { annotateFile, asJson } from '../annotator/support.ts';

const SEED = `${sharedDir}fixtures/seed-examples/csvtocsvw/`;
const json = (name: string): unknown => JSON.parse(readFileSync(SEED + name, 'utf8'));

describe('datastore fields from a CSVW descriptor', () => {
  it("types the annotator's columns, keeps header, other titles and unit, leaves out GID", () => {
    const table = descriptorTable(json('example-metadata.json'));
    assert.deepEqual(table.dialect, {
      skipRows: 16,
      headerRowCount: 2,
      delimiter: '\\t',
      encoding: 'latin-1',
    });
    assert.deepEqual(table.fields[0], {
      id: 'Prüfzeit',
      type: 'numeric',
      info: { label: 's · Pruefzeit', unit: 'http://qudt.org/vocab/unit/SEC' },
    });
    assert.ok(table.fields.every((f) => f.id !== 'GID'));
  });

  it('reads standard CSVW datatypes and makes taken or missing names unique', () => {
    const table = descriptorTable({
      url: 'x.csv',
      tableSchema: {
        columns: [
          { titles: 'when', datatype: { base: 'date' } },
          { titles: ['when'], name: 'when2', datatype: 'dateTime' },
          { name: 'ok', datatype: 'boolean' },
          { titles: '_hidden', datatype: 'integer' },
          { name: 'v', virtual: true },
        ],
      },
    });
    assert.deepEqual(
      table.fields.map((f) => [f.id, f.type]),
      [
        ['when', 'date'],
        ['when2', 'timestamp'],
        ['ok', 'bool'],
        ['column 4', 'numeric'],
      ],
    );
    assert.throws(
      () => descriptorTable({ tables: [] }),
      (e: unknown) => e instanceof DomainError && e.field === 'metadata_url',
    );
  });

  it('imports a seed CSV in batches: all its rows, numbers sortable as numbers', async () => {
    const store = await openEmbeddedDatastore(':memory:');
    const told: number[] = [];
    try {
      const info = await importCsv(
        store,
        'example2',
        json('example2-metadata.json'),
        { body: createReadStream(SEED + 'example2.csv') },
        'example2.csv',
        { batchSize: 100, onRows: (rows) => told.push(rows) },
      );
      // Independently: the data rows follow the 2 skipped/header lines, up to the first blank one.
      const lines = readFileSync(SEED + 'example2.csv', 'utf8')
        .split(/\r?\n/)
        .slice(2);
      const data = lines
        .slice(
          0,
          lines.findIndex((l) => l.trim() === ''),
        )
        .map((l) => l.split('\t'));
      assert.equal(info.count, data.length);
      // Progress after each batch of 100: the rows so far, up to all of them.
      assert.deepEqual(
        told,
        Array.from({ length: Math.ceil(data.length / 100) }, (_, i) => Math.min((i + 1) * 100, data.length)),
      );
      assert.equal(info.fields[1]?.id, 'Kraft [kN]');
      const forces = data.map((cells) => Number(cells[1]));
      const top = await store.search({ resource_id: 'example2', sort: '"Kraft [kN]" desc', limit: 3 });
      assert.deepEqual(
        top.records.map((r) => r['Kraft [kN]']),
        forces.toSorted((a, b) => b - a).slice(0, 3),
      );
    } finally {
      await store.close();
    }
  });

  it('refuses a cell its type cannot read, and keeps no half table', async () => {
    const store = await openEmbeddedDatastore(':memory:');
    try {
      const descriptor = { tableSchema: { columns: [{ titles: 'n', datatype: 'double' }] } };
      const csv = { text: 'n\n1\n2\nthree\n' };
      await assert.rejects(importCsv(store, 'r', descriptor, csv, 'r.csv'), (e: unknown) => {
        assert.ok(e instanceof DomainError && e.kind === 'invalid' && e.field === 'csv_url');
        assert.match(e.message, /line 4/);
        return true;
      });
      await assert.rejects(
        store.info('r'),
        (e: unknown) => e instanceof DomainError && e.kind === 'not-found',
      );
    } finally {
      await store.close();
    }
  });

  it("keeps a machine export's measurements, not the small tables of settings above them", async () => {
    // Expectations from reading the files: Shimadzu Trapezium's test settings (1 row), shape
    // (1 row), then header line 19, units line 20, 5598 rows; MTS 793's operator block as a
    // table, a first acquisition of 2 rows, then one of 6 columns and 455 rows.
    const cases: [string, string[], number][] = [
      ['shimadzu-jp-agis.csv', ['時間', '試験力', 'ｽﾄﾛｰｸ', 'Unnamed: 3_level_0'], 5598],
      [
        'mts793-de-druck-specimen.dat',
        ['Datum', 'Tageszeit', 'Laufzeit', 'Ch 1 Kraft Sollwert', 'Ch 1 Kraft', 'Ch 1 Weg'],
        455,
      ],
    ];
    const store = await openEmbeddedDatastore(':memory:');
    try {
      for (const [name, fields, rows] of cases) {
        const file = `${sharedDir}fixtures/real-exports/${name}`;
        const { descriptor } = await annotateFile(file, `http://example.org/${name}`);
        const info = await importCsv(
          store,
          name,
          asJson(descriptor),
          { body: createReadStream(file) },
          name,
          {
            lines: () => countLines(createReadStream(file)),
          },
        );
        assert.deepEqual(
          info.fields.map((f) => f.id),
          fields,
          name,
        );
        assert.equal(info.count, rows, name);
      }
    } finally {
      await store.close();
    }
  });

  it('chooses among the blocks of one file only', () => {
    const table = (url: string, skipRows: number) => ({ url, dialect: { skipRows, headerRowCount: 1 } });
    // One file: the second block has room for 90 rows, the first for 9.
    assert.equal(mainTableIndex({ tables: [table('a.csv', 0), table('a.csv', 10)] }, 100), 1);
    // Two files of a table group: the first table, as before.
    assert.equal(mainTableIndex({ tables: [table('a.csv', 0), table('b.csv', 10)] }, 100), 0);
  });

  it('counts lines: LF or CRLF, CR alone, a last line without a break', async () => {
    assert.equal(await countLines(['a\r\nb', '\r\nc\r\n']), 3);
    assert.equal(await countLines(['a\rb\r', 'c']), 3);
    assert.equal(await countLines([Buffer.from('a\n'), Buffer.from('')]), 1);
    assert.equal(await countLines([]), 0);
  });
});
