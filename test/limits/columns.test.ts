// Columns per CSV row (LABLD_MAX_COLUMNS): the annotator, csv2rdf (CSVW) and RML CSV sources
// refuse the 520,000-column file of issue 11 with a 413 naming the field and the variable, at
// the first wide row; a row of exactly the limit is still read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvEvents } from '../../lib/csvw/csv-reader.ts';
import { DEFAULT_DIALECT } from '../../lib/csvw/dialect.ts';
import { csvwToRdf, type LoadedResource, type ResourceLoader } from '../../lib/csvw/index.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { maxColumns } from '../../lib/limits.ts';
import { runRml } from '../../lib/rml/index.ts';
import { annotateBytes } from '../annotator/support.ts';

const LIMIT = maxColumns();
const WIDE = 520_000;

/** A header of `columns` names (`c0`, `c1`, …) and two numeric rows. */
function csv(columns: number, separator = ','): string {
  const header = Array.from({ length: columns }, (_, i) => `c${i}`).join(separator);
  const row = (r: number) => Array.from({ length: columns }, (_, i) => `${r}${i % 10}`).join(separator);
  return `${header}\n${row(1)}\n${row(2)}\n`;
}

/** The finding's file: one-character cells, `columns` of them on each of three lines. */
const oneCharacterColumns = (columns: number, separator = ','): string =>
  ['a', '1', '2'].map((cell) => `${`${cell}${separator}`.repeat(columns - 1)}${cell}\n`).join('');

function refusedWide(field: string | undefined, where: RegExp) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, 'too-large');
    assert.equal(error.field, field);
    assert.match(error.message, where);
    assert.ok(error.message.endsWith(`has more than ${LIMIT} columns (LABLD_MAX_COLUMNS)`), error.message);
    return true;
  };
}

const memoryLoader =
  (files: Record<string, string>): ResourceLoader =>
  async (url: string): Promise<LoadedResource> => {
    const text = files[url];
    if (text === undefined) throw new DomainError('not-found', `cannot get ${url}`, 'csv_url');
    return { text };
  };

describe('annotator', () => {
  const wide = oneCharacterColumns(WIDE, ';');

  it('refuses 520,000 columns with a 413 naming file or data_url, without building the table', async () => {
    const started = performance.now();
    await assert.rejects(annotateBytes(wide), refusedWide('file', /^file: line 1 has more than/));
    await assert.rejects(
      annotateBytes(wide, { field: 'data_url' }),
      refusedWide('data_url', /^data_url: line 1/),
    );
    assert.ok(performance.now() - started < 5000, `took ${performance.now() - started} ms`);
  });

  it('refuses a wide table after a narrow block, naming its line', async () => {
    const text = `Prüfer;Bob\nDatum;20.02.2008\n\n${csv(LIMIT + 1, ';')}`;
    await assert.rejects(annotateBytes(text), refusedWide('file', /^file: line 4 has more than/));
  });

  it('annotates a table of exactly the limit', async () => {
    const { descriptor } = await annotateBytes(csv(LIMIT, ';'));
    const tables = (descriptor as unknown as { tables: { tableSchema: { columns: { name: string }[] } }[] })
      .tables;
    const columns = tables[0]?.tableSchema.columns ?? [];
    // The annotator puts its GID column (the row number) in front of the file's columns.
    assert.deepEqual(columns.map((column) => column.name).slice(0, 2), ['GID', 'C0']);
    assert.equal(columns.length, LIMIT + 1);
  });
});

describe('csv2rdf (CSVW)', () => {
  it('refuses 520,000 columns naming csv_url and the file', async () => {
    const load = memoryLoader({ 'http://example.org/wide.csv': oneCharacterColumns(WIDE) });
    await assert.rejects(
      csvwToRdf({ csvUrl: 'http://example.org/wide.csv' }, { load }),
      refusedWide('csv_url', /^csv_url: row 1 of http:\/\/example\.org\/wide\.csv has more than/),
    );
  });

  it('refuses a wide data row after a narrow header', async () => {
    const text = `a,b\n1,2\n${'3,'.repeat(LIMIT)}4\n`;
    const load = memoryLoader({ 'http://example.org/w.csv': text });
    await assert.rejects(
      csvwToRdf({ csvUrl: 'http://example.org/w.csv' }, { load }),
      refusedWide('csv_url', /^csv_url: row 3 of/),
    );
  });

  it('converts a table of exactly the limit', async () => {
    const load = memoryLoader({ 'http://example.org/ok.csv': csv(LIMIT) });
    const { quads } = await csvwToRdf({ csvUrl: 'http://example.org/ok.csv' }, { load, mode: 'minimal' });
    assert.equal(quads.length, 2 * LIMIT);
  });

  it('the tokenizer stops inside the wide row, across chunk boundaries', async () => {
    async function* chunks() {
      yield 'a,b\n';
      for (let i = 0; i < 100; i++) yield ','.repeat(LIMIT / 50);
    }
    const limits = { field: 'csv_url', url: 'http://example.org/c.csv', maxColumns: LIMIT };
    await assert.rejects(
      async () => {
        for await (const event of csvEvents(chunks(), DEFAULT_DIALECT, undefined, limits)) void event;
      },
      refusedWide('csv_url', /^csv_url: row 2 of http:\/\/example\.org\/c\.csv/),
    );
  });
});

describe('RML CSV sources', () => {
  const mapping = `@prefix rml: <http://w3id.org/rml/> .
@prefix ex: <http://ex.com/> .
<#TM> rml:logicalSource [ rml:source [ a rml:RelativePathSource; rml:path "data.csv" ];
    rml:referenceFormulation rml:CSV ];
  rml:subjectMap [ rml:template "http://ex.com/{c0}" ];
  rml:predicateObjectMap [ rml:predicate ex:b; rml:objectMap [ rml:reference "c${LIMIT - 1}" ] ] .`;

  it('refuses 520,000 columns naming the source and its line', async () => {
    await assert.rejects(
      runRml(mapping, { sources: { 'data.csv': oneCharacterColumns(WIDE) } }),
      refusedWide(undefined, /^line 1 of the source data\.csv has more than/),
    );
  });

  it('reads a source of exactly the limit', async () => {
    const { nquads } = await runRml(mapping, { sources: { 'data.csv': csv(LIMIT) } });
    assert.deepEqual(nquads.split('\n').filter(Boolean).sort(), [
      '<http://ex.com/10> <http://ex.com/b> "13" .',
      '<http://ex.com/20> <http://ex.com/b> "23" .',
    ]);
  });
});
