// Import reads numbers the way annotate described them (issue 28, "a decimal-comma export cannot be
// imported"), on a datastore of either kind: a Polish Instron Bluehill export (windows-1250, `;`,
// every value quoted with a decimal comma) was annotated with `decimalChar: ","` and then refused
// by the import (`"0,00000" in column "Godzina" is not numeric`). The expected values are read
// off the files by hand. Run by locale-import.test.ts (embedded) and .postgres.ts.
import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { descriptorToRdf } from '../../lib/csvw/index.ts';
import type { Datastore } from '../../lib/datastore/contract.ts';
import { importCsv } from '../../lib/datastore/import.ts';
import type { LoadedResource } from '../../lib/loader.ts';
import { annotateBytes, annotateFile, asJson } from '../annotator/support.ts';

const BLUEHILL = new URL('../annotator/fixtures/bluehill-pl.csv', import.meta.url).pathname;
const QUDT_VALUE = 'http://qudt.org/schema/qudt/value';

/** A fresh datastore and how to dispose of it. */
export type OpenStore = () => Promise<{ store: Datastore; dispose: () => Promise<void> }>;

/** The records of a fresh import of `csv` by `descriptor`, in file order. */
export async function imported(open: OpenStore, descriptor: unknown, csv: () => LoadedResource, url: string) {
  const { store, dispose } = await open();
  try {
    const info = await importCsv(store, 'r', descriptor, csv(), url);
    const found = await store.search({ resource_id: 'r', limit: 1000, sort: '_id' });
    return { info, records: found.records };
  } finally {
    await dispose();
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

/** The import's cases that need a store, on the store `open` makes. */
export function localeImport(name: string, open: OpenStore): void {
  describe(`import reads numbers the way annotate described them (${name})`, () => {
    it('a Bluehill export (windows-1250, ";", quoted decimal commas) is imported with numeric columns', async () => {
      const url = 'http://example.org/bluehill-pl.csv';
      const { descriptor } = await annotateFile(BLUEHILL, url, { encoding: 'windows-1250' });
      const csv = () => ({ body: createReadStream(BLUEHILL) });
      const { info, records } = await imported(open, asJson(descriptor), csv, url);
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
        open,
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
  });
}
