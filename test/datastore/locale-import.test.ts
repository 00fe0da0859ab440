// Import reads numbers the way annotate described them (issue 28): the cases on the embedded
// datastore (locale-import.ts; .postgres.ts runs them on PostgreSQL), the refusal's words, and
// the one reading of a cell (lib/csvw/column-format.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numberText } from '../../lib/csvw/column-format.ts';
import { openEmbeddedDatastore } from '../../lib/datastore/embedded.ts';
import { imported, localeImport, type OpenStore } from './locale-import.ts';

const embedded: OpenStore = async () => {
  const store = await openEmbeddedDatastore(':memory:');
  return { store, dispose: () => store.close() };
};

localeImport('embedded', embedded);

describe('import and describe read a cell by its column format', () => {
  it('a column whose descriptor says decimalChar "," refuses a point, naming the format', async () => {
    const descriptor = {
      url: 'x.csv',
      dialect: { delimiter: ';' },
      tableSchema: {
        columns: [
          {
            titles: 'F',
            format: { '@id': 'http://www.w3.org/2001/XMLSchema#double' },
            datatype: { base: 'double', format: { decimalChar: ',' } },
          },
        ],
      },
    };
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
});
