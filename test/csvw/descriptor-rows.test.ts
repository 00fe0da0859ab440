// The rows describe and the import read (descriptorRowBatches) come in batches of a bounded
// piece of text, however large the chunks the body arrives in (issue 29: a batch of a whole
// 64 KB read lived across the young generation's collections in a worker and was promoted),
// and the rows are the same as the text read whole: cells split between two pieces, characters
// outside the BMP cut between their two halves, a file given as one string.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  PIECE_CHARS,
  descriptorRowBatches,
  type DescriptorDialect,
  type DescriptorRow,
} from '../../lib/csvw/descriptor-rows.ts';
import type { LoadedResource } from '../../lib/csvw/types.ts';

const DIALECT: DescriptorDialect = { skipRows: 1, headerRowCount: 1, delimiter: ',', encoding: 'utf-8' };

/** A file of `rows` rows, row i's cells built by `cell(i, column)`, after a note line and a header. */
function file(
  rows: number,
  cell: (row: number, column: number) => string,
): { text: string; cells: string[][] } {
  const cells = Array.from({ length: rows }, (_, i) => [0, 1, 2].map((c) => cell(i, c)));
  return { text: `note\na,b,c\n${cells.map((r) => r.join(',')).join('\n')}\n`, cells };
}

async function batches(resource: LoadedResource): Promise<DescriptorRow[][]> {
  const all: DescriptorRow[][] = [];
  for await (const batch of descriptorRowBatches(resource, 'x.csv', DIALECT, 3)) all.push(batch);
  return all;
}

/** The body as one chunk of bytes: a reader that hands over a large read at once. */
const oneChunk = (text: string): LoadedResource => ({
  body: (async function* () {
    yield Buffer.from(text);
  })(),
});

describe('descriptorRowBatches', () => {
  it('hands rows on a bounded piece of text at a time, however large the chunk read', async () => {
    // 12 characters a row: a piece and the row carried into it from the last hold at most
    // ⌈PIECE_CHARS / 12⌉ + 2 rows.
    const { text, cells } = file(40_000, (i, c) => String((i * 3 + c) % 1000).padStart(3, '0'));
    const most = Math.ceil(PIECE_CHARS / 12) + 2;
    for (const resource of [oneChunk(text), { text }]) {
      const read = await batches(resource);
      assert.ok(read.length > 1, 'more than one batch');
      for (const batch of read) assert.ok(batch.length <= most, `a batch of ${batch.length} rows`);
      const rows = read.flat();
      assert.deepEqual(
        rows.map((r) => r.cells),
        cells,
      );
      assert.deepEqual(
        rows.map((r) => r.index),
        cells.map((_, i) => i),
      );
      assert.deepEqual(
        rows.map((r) => r.sourceNumber),
        cells.map((_, i) => i + 3),
      );
    }
  });

  it('reads the same rows where a piece ends inside a cell or between the halves of a character', async () => {
    // Rows of an odd length with a character outside the BMP (two UTF-16 units) in each cell:
    // the pieces' ends fall at every place within a row, inside the pairs too.
    const { text, cells } = file(3000, (i, c) => `${'x'.repeat((i + c) % 7)}😀${i}`);
    const cutPairs = Array.from({ length: Math.floor(text.length / PIECE_CHARS) }, (_, k) =>
      text.charCodeAt((k + 1) * PIECE_CHARS - 1),
    ).filter((code) => code >= 0xd800 && code < 0xdc00);
    assert.ok(cutPairs.length > 0, 'a piece ends between the halves of a character');
    const rows = (await batches(oneChunk(text))).flat();
    assert.deepEqual(
      rows.map((r) => r.cells),
      cells,
    );
  });
});
