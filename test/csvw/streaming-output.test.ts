// /api/rdf output as a stream into the blob store: a stored graph is complete or there is none.
// The domain pieces are composed as consumers/annotator.ts composes them (descriptorGraph →
// serializeStream → storeDownloadStream). Expected triple counts come from the descriptor
// and the table's shape, not from the converter.
import assert from 'node:assert/strict';
import { createReadStream, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from '../support/fc.ts';
import { StreamParser } from 'n3';
import type * as RDF from '@rdfjs/types';
import { BlobStore } from '../../lib/blobs/blob-store.ts';
import { storeDownloadStream } from '../../lib/blobs/download.ts';
import {
  descriptorGraph,
  descriptorToRdf,
  type LoadedResource,
  type ResourceLoader,
} from '../../lib/csvw/index.ts';
import {
  FORMATS,
  declaredPrefixes,
  parse,
  serialize,
  serializeStream,
  type RdfFormat,
} from '../../lib/rdf/index.ts';
import { COLUMNS, annotatorDescriptor, writeNumericCsv } from '../support/numeric-table.ts';
import { rejection } from '../support/client-error.ts';
import { seedFixture } from '../support/shared.ts';
import { tempDir } from '../support/temp.ts';

const BASE = 'https://lab.example.org/files/';

/** Serves files of `dir` under BASE, the CSV as a byte stream (as the consumer's loader does). */
function dirLoader(dir: string, breakAfter?: number): ResourceLoader {
  return async (url: string): Promise<LoadedResource> => {
    const path = join(dir, url.slice(BASE.length));
    if (url.endsWith('.json')) return { text: readFileSync(path, 'utf8') };
    if (breakAfter === undefined) return { body: createReadStream(path) };
    return {
      body: (async function* () {
        let sent = 0;
        for await (const chunk of createReadStream(path, { highWaterMark: 16384 })) {
          if (sent >= breakAfter) throw new Error('connection reset by peer');
          sent += (chunk as Buffer).byteLength;
          yield chunk as Buffer;
        }
      })(),
    };
  };
}

async function storeRdf(
  blobs: BlobStore,
  dir: string,
  name: string,
  format: RdfFormat,
  load?: ResourceLoader,
) {
  const graph = await descriptorGraph(
    { metadataUrl: `${BASE}${name}-metadata.json` },
    load ?? dirLoader(dir),
    { generatedAt: '2026-01-01T00:00:00Z' },
  );
  const body = serializeStream(graph.batches, format, {
    prefixes: graph.prefixes,
    maxBufferedTriples: 100_000,
    limitName: 'LABLD_MAX_BUFFERED_TRIPLES',
  });
  return storeDownloadStream(blobs, body, FORMATS[format].contentType, `${name}.x`);
}

async function table(dir: string, name: string, rows: number): Promise<{ descriptor: string }> {
  await writeNumericCsv(join(dir, `${name}.csv`), rows);
  const descriptor = await annotatorDescriptor(join(dir, `${name}.csv`), `${BASE}${name}.csv`);
  writeFileSync(join(dir, `${name}-metadata.json`), descriptor);
  return { descriptor };
}

/** Files in the blob store besides its tmp folder, and what tmp holds. */
function stored(blobs: BlobStore): { files: string[]; temporary: string[] } {
  const files = readdirSync(blobs.dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.endsWith('tmp'))
    .map((entry) => join(entry.parentPath, entry.name));
  return { files, temporary: readdirSync(join(blobs.dir, 'tmp')) };
}

describe('/api/rdf output streams into the blob store', () => {
  let dir: string;
  let blobs: BlobStore;
  before(() => {
    dir = tempDir('labld-rdf-stream-');
    blobs = new BlobStore(join(dir, 'blobs'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('stores the complete Turtle of a 100,000-row table (parsed back: every triple there)', async () => {
    const rows = 100_000;
    const { descriptor } = await table(dir, 'long', rows);
    const columns = (JSON.parse(descriptor) as { tables: { tableSchema: { columns: object[] } }[] }).tables[0]
      ?.tableSchema.columns as Record<string, unknown>[];
    const withUnit = columns.filter((c) => c['qudt:unit'] !== undefined).length;
    const descriptorTriples = await countTriples(
      JSON.parse(descriptor) as object,
      `${BASE}long-metadata.json`,
    );
    // Provenance: 7 for the activity, agent and descriptor, 7 per table. Per row: the row's
    // 4, and per numeric cell its triple and a QuantityValue (type, value, unit if any).
    const expected = descriptorTriples + 7 + 7 + rows * (4 + 3 * COLUMNS + withUnit);
    const download = await storeRdf(blobs, dir, 'long', 'turtle');
    let count = 0;
    let lastRow = false;
    await new Promise<void>((resolve, reject) => {
      createReadStream(blobs.path(download.blob))
        .pipe(new StreamParser({ format: 'text/turtle' }))
        .on('data', (quad: RDF.Quad) => {
          count += 1;
          if (quad.object.value === `${BASE}long.csv/row=${rows}`) lastRow = true;
        })
        .on('error', reject)
        .on('end', resolve);
    });
    assert.equal(count, expected);
    assert.ok(lastRow, 'the last row is there');
  });

  it('past LABLD_MAX_OUTPUT_BYTES: a 413 naming the limit and its variable, nothing stored', async () => {
    await table(dir, 'limit', 5_000);
    const before = stored(blobs).files;
    const saved = process.env['LABLD_MAX_OUTPUT_BYTES'];
    process.env['LABLD_MAX_OUTPUT_BYTES'] = '100000';
    try {
      const error = await rejection(storeRdf(blobs, dir, 'limit', 'turtle'));
      assert.equal(error.kind, 'too-large');
      assert.match(error.message, /100000 bytes/);
      assert.match(error.message, /LABLD_MAX_OUTPUT_BYTES/);
    } finally {
      if (saved === undefined) delete process.env['LABLD_MAX_OUTPUT_BYTES'];
      else process.env['LABLD_MAX_OUTPUT_BYTES'] = saved;
    }
    assert.deepEqual(stored(blobs), { files: before, temporary: [] });
  });

  it('a format that needs the whole graph, past LABLD_MAX_BUFFERED_TRIPLES: a 413, nothing stored', async () => {
    await table(dir, 'buffered', 2_000); // 2,000 × 83 triples > 100,000
    const before = stored(blobs).files;
    const error = await rejection(storeRdf(blobs, dir, 'buffered', 'json-ld'));
    assert.equal(error.kind, 'too-large');
    assert.equal(error.field, 'return_type');
    assert.match(error.message, /100000 triples \(LABLD_MAX_BUFFERED_TRIPLES\)/);
    assert.deepEqual(stored(blobs), { files: before, temporary: [] });
  });

  it('a bad row mid-way (line 3,001 of 5,001 ragged): the 422 naming csv_url and the line, nothing stored', async () => {
    await table(dir, 'ragged', 5_000);
    const path = join(dir, 'ragged.csv');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[3000] = `${lines[3000]},1.5,2.5`;
    writeFileSync(path, lines.join('\n'));
    const before = stored(blobs).files;
    const error = await rejection(storeRdf(blobs, dir, 'ragged', 'turtle'));
    assert.equal(error.kind, 'invalid');
    assert.equal(error.field, 'csv_url');
    assert.match(error.message, /line 3001 /);
    assert.deepEqual(stored(blobs), { files: before, temporary: [] });
  });

  it('a CSV stream that breaks off: the 422 naming csv_url and the cause, nothing stored', async () => {
    await table(dir, 'broken', 20_000);
    const before = stored(blobs).files;
    const error = await rejection(storeRdf(blobs, dir, 'broken', 'nt', dirLoader(dir, 500_000)));
    assert.equal(error.kind, 'invalid');
    assert.equal(error.field, 'csv_url');
    assert.match(error.message, /broken\.csv: connection reset by peer/);
    assert.deepEqual(stored(blobs), { files: before, temporary: [] });
  });
});

async function countTriples(document: object, base: string): Promise<number> {
  return (await parse(JSON.stringify(document), 'json-ld', { baseIRI: base })).length;
}

describe('streamed text is the string text', () => {
  const SEED = 'https://github.com/Mat-O-Lab/CSVToCSVW/raw/main/examples/';
  const seedLoader: ResourceLoader = async (url) => ({
    text: readFileSync(seedFixture(`csvtocsvw/${url.slice(SEED.length)}`), 'utf8'),
  });
  const graphs: [string, RDF.Quad[]][] = [];
  before(async () => {
    for (const name of ['example5', 'example2']) {
      const quads = await descriptorToRdf({ metadataUrl: `${SEED}${name}-metadata.json` }, seedLoader, {
        generatedAt: '2026-01-01T00:00:00Z',
      });
      graphs.push([name, quads]);
    }
  });

  /** Cuts `quads` into batches at the given points. */
  const batches = (quads: RDF.Quad[], cuts: number[]): RDF.Quad[][] => {
    const points = [...new Set(cuts.map((c) => c % (quads.length + 1)))].sort((a, b) => a - b);
    const out: RDF.Quad[][] = [];
    let from = 0;
    for (const point of [...points, quads.length]) {
      out.push(quads.slice(from, point));
      from = point;
    }
    return out;
  };

  for (const format of Object.keys(FORMATS) as RdfFormat[]) {
    it(`${format}: the seed graphs streamed in any batches give serialize's bytes`, async () => {
      for (const [name, quads] of graphs) {
        const prefixes = { csvw: 'http://www.w3.org/ns/csvw#', prov: 'http://www.w3.org/ns/prov#' };
        const whole = await serialize(quads, format, { prefixes });
        assert.ok(whole.length > 1000, name);
        await fc.assert(
          fc.asyncProperty(fc.array(fc.nat(), { maxLength: 6 }), async (cuts) => {
            let text = '';
            const streamed = serializeStream(batches(quads, cuts), format, {
              prefixes: declaredPrefixes(quads, prefixes),
            });
            for await (const piece of streamed) text += piece;
            assert.equal(text, whole, `${name} cut at ${cuts.join(', ')}`);
          }),
          { numRuns: format === 'json-ld' || format === 'longturtle' ? 2 : 8 },
        );
      }
    });
  }
});
