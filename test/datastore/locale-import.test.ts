// Import reads numbers as annotate described them (issue 28, "a decimal-comma export cannot be
// imported"): a Polish Instron Bluehill export (windows-1250, `;`, every value quoted with a
// decimal comma) was annotated with `decimalChar: ","` and then refused by the import
// (`"0,00000" in column "Godzina" is not numeric`). The expected values are read off the files.
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { numberText } from '../../lib/csvw/column-format.ts';
import { descriptorToRdf } from '../../lib/csvw/index.ts';
import { openEmbeddedDatastore } from '../../lib/datastore/embedded.ts';
import { importCsv } from '../../lib/datastore/import.ts';
import type { LoadedResource } from '../../lib/loader.ts';
import { annotateBytes, annotateFile, asJson } from '../annotator/support.ts';

const BLUEHILL = new URL('../annotator/fixtures/bluehill-pl.csv', import.meta.url).pathname;
const QUDT_VALUE = 'http://qudt.org/schema/qudt/value';

/** The records of a fresh import of `csv` by `descriptor`, in file order. */
async function imported(descriptor: unknown, csv: () => LoadedResource, url: string) {
  const store = await openEmbeddedDatastore(':memory:');
  try {
    const info = await importCsv(store, 'r', descriptor, csv(), url);
    const found = await store.search({ resource_id: 'r', limit: 1000, sort: '_id' });
    return { info, records: found.records };
  } finally {
    await store.close();
  }
}

/** The qudt:value literals describe writes, in row order. */
async function describedValues(descriptor: unknown, csv: () => LoadedResource, url: string) {
  const metadataUrl = 'http://example.org/bluehill-metadata.json';
  const load = async (at: string): Promise<LoadedResource> =>
    at === metadataUrl ? { text: JSON.stringify(descriptor) } : csv();
  const quads = await descriptorToRdf({ metadataUrl, csvUrl: url }, load);
  return quads.filter((q) => q.predicate.value === QUDT_VALUE).map((q) => Number(q.object.value));
}

describe('import reads numbers the way annotate described them', () => {
  it('a Bluehill export (windows-1250, ";", quoted decimal commas) is imported with numeric columns', async () => {
    const url = 'http://example.org/bluehill-pl.csv';
    const { descriptor } = await annotateFile(BLUEHILL, url, { encoding: 'windows-1250' });
    const csv = () => ({ body: createReadStream(BLUEHILL) });
    const { info, records } = await imported(asJson(descriptor), csv, url);
    // 30 data lines below the unit row `(s);(mm);(N);(mm/mm)`.
    assert.equal(info.count, 30);
    assert.deepEqual(
      info.fields.map((f) => [f.id, f.type, f.info?.unit]),
      [
        ['Czas', 'numeric', 'http://qudt.org/vocab/unit/SEC'],
        ['Przemieszczenie', 'numeric', 'http://qudt.org/vocab/unit/MilliM'],
        ['Siła', 'numeric', 'http://qudt.org/vocab/unit/N'],
        ['Odkształcenie rozciągające', 'numeric', 'http://qudt.org/vocab/unit/FRACTION'],
      ],
    );
    const row = (r: Record<string, unknown>) => [
      r['Czas'],
      r['Przemieszczenie'],
      r['Siła'],
      r['Odkształcenie rozciągające'],
    ];
    assert.deepEqual(row(records[0]!), [0, 0, 0.27211, 0]);
    assert.deepEqual(row(records[1]!), [0.1, 0.00083, 40.77211, 0.00017]);
    assert.deepEqual(row(records[29]!), [2.9, 0.02416, 1174.77211, 0.00481]);
    // describe reads the same cells to the same numbers.
    // (The rows follow the descriptor's own triples, whose notes hold the metadata's numbers.)
    const values = (await describedValues(asJson(descriptor), csv, url)).slice(-30 * 4);
    assert.deepEqual(values.slice(0, 8), [0, 0, 0.27211, 0, 0.1, 0.00083, 40.77211, 0.00017]);
    assert.deepEqual(values.slice(-4), [2.9, 0.02416, 1174.77211, 0.00481]);
  });

  it('the finding as reported: a "Godzina" column of "0,00000" is imported as numbers', async () => {
    const text = [
      'Nazwa metody;"Rozciąganie";',
      'Próbka;"1";',
      '',
      'Godzina;Siła',
      '(s);(kN)',
      ...['"0,00000";"0,00000"', '"0,50000";"1,25000"', '"1,00000";"-2,50000"'],
      ...Array.from({ length: 20 }, (_, i) => `"${i + 2},00000";"${i},12500"`),
      '',
    ].join('\r\n');
    const bytes = iconv.encode(text, 'windows-1250');
    const url = 'http://example.org/godzina.csv';
    const { descriptor } = await annotateBytes(bytes, { csvUrl: url, encoding: 'windows-1250' });
    const { info, records } = await imported(
      asJson(descriptor),
      () => ({
        body: (async function* () {
          yield bytes;
        })(),
      }),
      url,
    );
    assert.equal(info.count, 23);
    assert.deepEqual(
      records.slice(0, 3).map((r) => [r['Godzina'], r['Siła']]),
      [
        [0, 0],
        [0.5, 1.25],
        [1, -2.5],
      ],
    );
    assert.deepEqual([records[22]!['Godzina'], records[22]!['Siła']], [21, 19.125]);
  });

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
      imported(descriptor, () => ({ text: 'F\n"1,5"\n"2.5"\n' }), 'x.csv'),
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
