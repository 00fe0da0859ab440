// Property: whatever metadata object and CSV text arrive, the converters give quads or a
// DomainError (4xx with a field), never another exception.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from '../support/fc.ts';
import {
  csvwToRdf,
  descriptorToRdf,
  type LoadedResource,
  type ResourceLoader,
} from '../../lib/csvw/index.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { statusOf } from '../../lib/process/http-status.ts';

const BASE = 'http://example.org/';

function loader(files: Record<string, string>): ResourceLoader {
  return async (url: string): Promise<LoadedResource> => {
    if (!Object.hasOwn(files, url)) throw new DomainError('not-found', `cannot get ${url}`, 'csv_url');
    return { text: files[url] as string };
  };
}

async function quadsOrDomainError(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof DomainError, `not a DomainError: ${(error as Error)?.stack ?? String(error)}`);
    assert.ok(statusOf(error.kind) < 500);
    assert.ok(error.field === 'metadata_url' || error.field === 'csv_url', `field ${error.field}`);
  }
}

const csvText = fc
  .array(
    fc.array(
      fc.oneof(fc.string(), fc.constantFrom('', '"', '""', ',', '\n', '1.5', '2010-01-02', 'true', '#x')),
      { maxLength: 6 },
    ),
    { maxLength: 8 },
  )
  .map((rows) => rows.map((row) => row.join(',')).join('\n'));

const key = fc.constantFrom(
  'url',
  'tables',
  'tableSchema',
  'columns',
  'name',
  'titles',
  'datatype',
  'base',
  'format',
  'null',
  'default',
  'separator',
  'lang',
  'aboutUrl',
  'propertyUrl',
  'valueUrl',
  'virtual',
  'suppressOutput',
  'dialect',
  'delimiter',
  'header',
  'skipRows',
  'headerRowCount',
  'primaryKey',
  'foreignKeys',
  'notes',
  '@id',
  '@type',
  'dc:title',
  'minimum',
  'maxLength',
  'ordered',
  'trim',
  'commentPrefix',
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(
      'data.csv',
      'integer',
      'date',
      '{a}',
      'M/d/yyyy',
      '#,##0.0',
      'Table',
      '_:b',
      ';',
      'X|Y',
      1,
      -1,
      true,
      null,
    ),
    fc.string(),
    fc.integer(),
    fc.array(tie('any'), { maxLength: 3 }),
    fc.dictionary(key, tie('any'), { maxKeys: 4 }),
  ),
})).any;

const metadata = fc
  .record(
    {
      '@context': fc.constantFrom(
        'http://www.w3.org/ns/csvw',
        ['http://www.w3.org/ns/csvw', { '@language': 'en' }],
        'x',
      ),
      url: fc.constantFrom('data.csv', 'other.csv', 1),
      tableSchema: fc.dictionary(key, value, { maxKeys: 4 }),
      dialect: fc.dictionary(key, value, { maxKeys: 3 }),
    },
    { requiredKeys: [] },
  )
  .chain((base) => fc.dictionary(key, value, { maxKeys: 3 }).map((extra) => ({ ...extra, ...base })));

describe('csvw property: quads or a DomainError', () => {
  it('csvwToRdf on random metadata and CSV text', async () => {
    await fc.assert(
      fc.asyncProperty(metadata, csvText, fc.boolean(), async (document, csv, minimal) => {
        const load = loader({ [`${BASE}data.csv`]: csv, [`${BASE}m.json`]: JSON.stringify(document) });
        await quadsOrDomainError(() =>
          csvwToRdf({ metadataUrl: `${BASE}m.json` }, { load, mode: minimal ? 'minimal' : 'standard' }),
        );
        await quadsOrDomainError(() => csvwToRdf({ csvUrl: `${BASE}data.csv` }, { load }));
      }),
      { numRuns: 300 },
    );
  });

  it('descriptorToRdf on random descriptors and CSV text', async () => {
    const descriptor = fc.record({
      '@context': fc.constant(['http://www.w3.org/ns/csvw', { xsd: 'http://www.w3.org/2001/XMLSchema#' }]),
      tables: fc.array(
        fc.record({
          url: fc.constantFrom('data.csv', 'missing.csv'),
          dialect: fc.record({
            delimiter: fc.constantFrom(',', '\\t', ';', ':+\\s+\\s*', '(', ''),
            skipRows: fc.integer({ min: -1, max: 3 }),
            headerRowCount: fc.integer({ min: 0, max: 2 }),
          }),
          tableSchema: fc.record({
            aboutUrl: fc.constantFrom('http://example.org/data.csv/gid-{GID}', '{GID'),
            columns: fc.array(
              fc.record({
                name: fc.string(),
                format: fc.record({
                  '@id': fc.constantFrom('xsd:double', 'xsd:integer', 'xsd:anyURI', 'xsd:string'),
                }),
              }),
              { maxLength: 4 },
            ),
          }),
        }),
        { maxLength: 2 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.oneof(descriptor, value), csvText, async (document, csv) => {
        const load = loader({
          [`${BASE}data.csv`]: csv,
          [`${BASE}m.json`]: JSON.stringify(document) ?? 'null',
        });
        await quadsOrDomainError(() => descriptorToRdf({ metadataUrl: `${BASE}m.json` }, load));
      }),
      { numRuns: 300 },
    );
  });
});
