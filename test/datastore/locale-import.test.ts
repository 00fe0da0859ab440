// Import reads numbers the way annotate described them (issue 28): the cases on the embedded
// datastore (locale-import.ts; .postgres.ts runs them on PostgreSQL), the refusal's words, and
// the one reading of a cell (lib/csvw/column-format.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numberText } from '../../lib/csvw/column-format.ts';
import { openEmbeddedDatastore } from '../../lib/datastore/embedded.ts';
import { importCsv } from '../../lib/datastore/import.ts';
import { imported, localeImport, type OpenStore } from './locale-import.ts';

const embedded: OpenStore = async () => {
  const store = await openEmbeddedDatastore(':memory:');
  return { store, dispose: () => store.close() };
};

localeImport('embedded', embedded);

/** A descriptor of a `;`-separated CSV with these columns. */
const semicolons = (url: string, columns: unknown[]) => ({
  url,
  dialect: { delimiter: ';' },
  tableSchema: { columns },
});

describe('import and describe read a cell by its column format', () => {
  it('a column whose descriptor says decimalChar "," refuses a point, naming the format', async () => {
    const descriptor = semicolons('x.csv', [
      {
        titles: 'F',
        format: { '@id': 'http://www.w3.org/2001/XMLSchema#double' },
        datatype: { base: 'double', format: { decimalChar: ',' } },
      },
    ]);
    await assert.rejects(
      imported(embedded, descriptor, () => ({ text: 'F\n"1,5"\n"2.5"\n' }), 'x.csv'),
      (error: Error) =>
        /line 3 of x\.csv: "2\.5" in column "F" is not numeric \(the descriptor's format: decimal ","\)/.test(
          error.message,
        ),
    );
  });

  it('reads a cell by the style the descriptor gives, or as the original did without one', () => {
    const comma = { decimalChar: ',', groupChar: null };
    const thousands = { decimalChar: '.', groupChar: ',' };
    const german = { decimalChar: ',', groupChar: '.' };
    assert.equal(numberText('-7,89761571695635E-05', comma), '-7.89761571695635E-05');
    assert.equal(numberText('9,286.44727', thousands), '9286.44727');
    assert.equal(numberText('242,370.29658', thousands), '242370.29658');
    assert.equal(numberText('1.234,5', german), '1234.5');
    assert.equal(numberText('2.5', comma), undefined);
    assert.equal(numberText('1,5', thousands), '15'); // CSVW drops group characters wherever they are
    // No style: plain numbers as they are, and German decimals (the original's repair).
    assert.equal(numberText('-0,000978064008450019', null), '-0.000978064008450019');
    assert.equal(numberText('1.234,5', null), '1234.5');
    assert.equal(numberText('.5', null), '.5');
    // …but not what only the original's blind repair read: dots that group nothing.
    assert.equal(numberText('..0', null), undefined);
    assert.equal(numberText('1.2.3,4', null), undefined);
    assert.equal(numberText('abc', null), undefined);
  });

  it('a file large enough to be parsed on a second thread is read by the same formats', async () => {
    // Past the 4 MB the import reads on one thread: 300,000 rows of two quoted numbers.
    const descriptor = semicolons('big.csv', [
      { titles: 'F', datatype: { base: 'double', format: { decimalChar: ',' } } },
      { titles: 'G', datatype: { base: 'double', format: { decimalChar: '.', groupChar: ',' } } },
    ]);
    const rows = 300_000;
    const lines = ['F;G'];
    for (let i = 0; i < rows; i++) lines.push(`"${i},5";"${i.toLocaleString('en-US')}.25"`);
    const text = `${lines.join('\n')}\n`;
    assert.ok(text.length > 4 << 20);
    const { store, dispose } = await embedded();
    try {
      const bytes = Buffer.from(text);
      const body = (async function* () {
        for (let at = 0; at < bytes.length; at += 1 << 16) yield bytes.subarray(at, at + (1 << 16));
      })();
      const info = await importCsv(store, 'big', descriptor, { body }, 'big.csv');
      assert.equal(info.count, rows);
      const last = await store.search({ resource_id: 'big', sort: '_id desc', limit: 1 });
      assert.deepEqual([last.records[0]!['F'], last.records[0]!['G']], [299999.5, 299999.25]);
    } finally {
      await dispose();
    }
  });
});
