// The chain's steps on the seed example.csv, from the uploaded blob to the joined graph:
// annotate → describe → select-mapping (seed mapping + two decoys) → convert. The joined graph
// must be the graph the converter's createrdf gives for the same descriptor and mapping.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Parser } from 'n3';
import { createRdf } from '../../lib/converter/index.ts';
import {
  annotateStep,
  convertStep,
  describeLimit,
  describeStep,
  selectMapping,
  stepFailure,
  TURTLE_PER_CSV_BYTE,
  type ChainFile,
  type Progress,
} from '../../lib/chain/index.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { baseUrl } from '../../lib/services.ts';
import { maxOutputBytes } from '../../lib/blobs/download.ts';
import { seedLoader } from '../converter/support.ts';
import { assertIsomorphic } from '../support/rdf.ts';
import { seedFixture } from '../support/shared.ts';
import { HARDNESS_MAPPING, PARTIAL_MAPPING, SEED_MAPPING, resourceUrl, seedCsv, store } from './support.ts';

const CSVW = 'http://www.w3.org/ns/csvw#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const LINK = 'http://purl.obolibrary.org/obo/RO_0010002';
const NOW = new Date('2026-11-25T09:00:00.000Z');
/** What a consumer tells the steps of the configuration. */
const SETTINGS = { siteUrl: baseUrl(), maxOutputBytes: maxOutputBytes() };

/** The data lines of example.csv: five tab-separated numbers (the one table below its metadata). */
const seedDataRows = readFileSync(seedFixture('csvtocsvw/example.csv'), 'latin1')
  .split('\n')
  .filter((line) => /^-?[\d.e+-]+(\t-?[\d.e+-]+){4}\r?$/.test(line)).length;

const blobs = store();
const csv = await seedCsv(blobs);
const annotateProgress: Progress[] = [];
const annotated = await annotateStep(
  { csv },
  { blobs, ...SETTINGS, now: NOW, onProgress: (p) => annotateProgress.push(p) },
);
/** The descriptor as the catalogue will publish it, beside the CSV. */
const descriptor: ChainFile = {
  url: resourceUrl('r-descriptor', annotated.descriptor.filename),
  blob: annotated.descriptor.blob,
  name: annotated.descriptor.filename,
};
const LIBRARY = [HARDNESS_MAPPING, PARTIAL_MAPPING, SEED_MAPPING];

test('annotate: example.csv → example-metadata.jsonld, a descriptor naming the CSV by its catalogue URL', async () => {
  assert.equal(annotated.descriptor.filename, 'example-metadata.jsonld');
  assert.equal(annotated.descriptor.contentType, 'application/ld+json');
  const json = JSON.parse(readFileSync(blobs.path(annotated.descriptor.blob), 'utf8')) as {
    tables: { url: string; tableSchema: { columns: { name: string }[] } }[];
  };
  assert.equal(json.tables.length, 1);
  assert.equal(json.tables[0]!.url, csv.url);
  assert.ok(json.tables[0]!.tableSchema.columns.some((c) => c.name === 'Standardkraft'));
  const size = readFileSync(seedFixture('csvtocsvw/example.csv')).length;
  assert.equal(annotated.summary.bytes, size);
  // Progress as the file is read: bytes growing, never past the file.
  const read = annotateProgress.map((p) => p.bytes!);
  assert.ok(read.length >= 2, `progress reports: ${read.join(', ')}`);
  assert.ok(read.every((b, i) => b <= size && (i === 0 || b > read[i - 1]!)));
  assert.ok(annotated.summary.durationMs >= 0);
});

test('the steps name the site URL they are given in their provenance, not the environment’s BASE_URL', async () => {
  const siteUrl = 'https://labld.example/lab';
  assert.notEqual(baseUrl(), siteUrl);
  const context = { blobs, ...SETTINGS, siteUrl, now: NOW };
  const { descriptor: stored } = await annotateStep({ csv }, context);
  const json = readFileSync(blobs.path(stored.blob), 'utf8');
  assert.ok(json.includes(`"${siteUrl}/annotator/api/annotate"`), json.slice(0, 2000));
  const { turtle } = await describeStep({ descriptor, csv }, context);
  assert.ok(readFileSync(blobs.path(turtle.blob), 'utf8').includes(`<${siteUrl}/annotator/api/rdf>`));
  const { joined } = await convertStep(
    { descriptor, csv, mapping: SEED_MAPPING },
    { ...context, load: seedLoader() },
  );
  assert.ok(readFileSync(blobs.path(joined.blob), 'utf8').includes(`<${siteUrl}/converter/api/createrdf>`));
});

test("annotate's summary counts the file's own columns, not the row identifier the annotator adds", async () => {
  const twoColumns = { url: resourceUrl('r-two', 'two.csv'), name: 'two.csv', blob: '' };
  twoColumns.blob = await blobs.putBytes('Zeit [s];Kraft [N]\n0,1;5,2\n0,2;5,3\n0,3;5,4\n');
  const { summary } = await annotateStep({ csv: twoColumns }, { blobs, ...SETTINGS });
  assert.match(summary.note ?? '', /^1 table\(s\), 2 column\(s\), read as /);
  // The seed: five columns (Prüfzeit, Standardweg, Standardkraft, Dehnung, Traverse abs.).
  assert.match(annotated.summary.note ?? '', /^1 table\(s\), 5 column\(s\), /);
});

test('describe: example.ttl holds the descriptor and a csvw:Row per data line, streamed with progress', async () => {
  const progress: Progress[] = [];
  const described = await describeStep(
    { descriptor, csv },
    { blobs, ...SETTINGS, now: NOW, onProgress: (p) => progress.push(p) },
  );
  assert.equal(described.turtle.filename, 'example.ttl');
  assert.equal(described.turtle.contentType, 'text/turtle; charset=utf-8');
  const quads = new Parser().parse(readFileSync(blobs.path(described.turtle.blob), 'utf8'));
  const rows = quads.filter((q) => q.predicate.value === RDF_TYPE && q.object.value === `${CSVW}Row`);
  assert.equal(rows.length, seedDataRows);
  assert.equal(described.summary.rows, seedDataRows);
  assert.ok(quads.some((q) => q.predicate.value === `${CSVW}url` && q.object.value === csv.url));
  assert.ok(described.summary.triples! >= quads.length, 'every written triple is counted');
  assert.ok(progress.length > 1, 'progress comes per batch, not once at the end');
  assert.deepEqual(progress.at(-1), { triples: described.summary.triples, rows: seedDataRows });
});

test("describe's output is bounded by its CSV (32 times its size), never below LABLD_MAX_OUTPUT_BYTES", async () => {
  assert.equal(describeLimit(1000, 10), 32_000);
  assert.equal(describeLimit(1000, 50_000), 50_000);
  // LABLD_MAX_OUTPUT_BYTES far below example.ttl
  const described = await describeStep(
    { descriptor, csv },
    { blobs, ...SETTINGS, maxOutputBytes: 1024, now: NOW },
  );
  const turtleBytes = blobs.size(described.turtle.blob);
  assert.ok(turtleBytes > 1024, 'the Turtle is past the setting');
  assert.ok(turtleBytes <= TURTLE_PER_CSV_BYTE * blobs.size(csv.blob), 'and within its CSV’s bound');
});

test('select-mapping (exact): the seed mapping wins over a decoy of another kind and a partial match', async () => {
  const { selection, summary } = await selectMapping(
    { descriptor, library: LIBRARY, strategy: 'exact' },
    { blobs },
  );
  assert.equal(selection.selected?.name, 'csvw-template-map.yaml');
  assert.deepEqual(
    selection.ranking.map((r) => [r.rank, r.name, r.rules_applicable, r.rules_skipped, r.qualifies]),
    [
      [1, 'csvw-template-map.yaml', 7, 0, true],
      [2, 'tensile-partial-map.yaml', 5, 2, false],
      [3, 'hardness-map.yaml', 0, 3, false],
    ],
  );
  assert.match(summary.note ?? '', /csvw-template-map\.yaml/);
});

test('convert: example-joined.ttl is the graph createrdf gives for the same descriptor and mapping', async () => {
  const converted = await convertStep(
    { descriptor, csv, mapping: SEED_MAPPING },
    { blobs, ...SETTINGS, load: seedLoader(), now: NOW },
  );
  assert.equal(converted.joined.filename, 'example-joined.ttl');
  assert.equal(converted.joined.contentType, 'text/turtle; charset=utf-8');
  const text = readFileSync(blobs.path(converted.joined.blob), 'utf8');
  const ours = new Parser().parse(text);

  const direct = await createRdf(
    {
      mappingUrl: SEED_MAPPING.url,
      dataUrl: descriptor.url,
      returnType: 'turtle',
      activity: `${baseUrl()}/converter/api/createrdf`,
      now: NOW,
    },
    seedLoader({
      [SEED_MAPPING.url]: SEED_MAPPING.text!,
      [descriptor.url]: readFileSync(blobs.path(descriptor.blob), 'utf8'),
    }),
  );
  await assertIsomorphic(ours, new Parser().parse(direct.graph), 'joined graph');
  // And what it says, independently of createrdf: the seven links of the seed mapping.
  assert.equal(ours.filter((q) => q.predicate.value === LINK).length, 7);
  assert.ok(
    ours.filter((q) => q.predicate.value === LINK).every((q) => q.subject.value.startsWith(`${csv.url}/`)),
  );
  assert.equal(converted.summary.triples, ours.length);
  assert.match(converted.summary.note ?? '', /7 rules applied, 0 skipped/);
});

test('best_match picks the partial mapping when the exact one is absent, and it converts', async () => {
  const library = [HARDNESS_MAPPING, PARTIAL_MAPPING];
  const { selection } = await selectMapping({ descriptor, library, strategy: 'best_match' }, { blobs });
  assert.equal(selection.selected?.name, 'tensile-partial-map.yaml');
  assert.equal(selection.selected?.rating, 3);
  const converted = await convertStep(
    { descriptor, csv, mapping: PARTIAL_MAPPING },
    { blobs, ...SETTINGS, load: seedLoader(), now: NOW },
  );
  const ours = new Parser().parse(readFileSync(blobs.path(converted.joined.blob), 'utf8'));
  assert.equal(ours.filter((q) => q.predicate.value === LINK).length, 5);
  assert.match(converted.summary.note ?? '', /5 rules applied, 2 skipped/);
});

test('exact selects nothing without the full match, and says why in words', async () => {
  const library = [HARDNESS_MAPPING, PARTIAL_MAPPING];
  const { selection, summary } = await selectMapping({ descriptor, library, strategy: 'exact' }, { blobs });
  assert.equal(selection.selected, undefined);
  assert.match(selection.reason ?? '', /rules_skipped = 0/);
  assert.match(selection.reason ?? '', /"tensile-partial-map\.yaml", has 5 rules applicable, 2 skipped/);
  assert.match(selection.reason ?? '', /best_match/);
  assert.match(summary.note ?? '', /^no mapping selected: /);
  assert.equal(selection.ranking.length, 2, 'the ranking is shown even when nothing wins');
});

test('a descriptor that is not JSON fails select-mapping (the mappings are not to blame)', async () => {
  const bad: ChainFile = {
    url: resourceUrl('r-bad', 'x-metadata.jsonld'),
    blob: await blobs.putBytes('{oops'),
    name: 'x-metadata.jsonld',
  };
  await assert.rejects(
    selectMapping({ descriptor: bad, library: LIBRARY, strategy: 'exact' }, { blobs }),
    (e: unknown) => e instanceof DomainError && e.kind === 'invalid' && e.field === 'data_url',
  );
});

for (const [what, bytes, message] of [
  ['an empty CSV', Buffer.alloc(0), /file: the file is empty/],
  [
    'a binary file named .csv',
    Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(64, 0), Buffer.from('IHDR')]),
    /file: this is a binary file \(it contains NUL bytes\), not a CSV text file/,
  ],
] as const) {
  test(`annotate fails on ${what} with a clear DomainError, and the failure says what to do`, async () => {
    const file: ChainFile = {
      url: resourceUrl('r-bad', 'upload.csv'),
      blob: await blobs.putBytes(bytes),
      name: 'upload.csv',
    };
    let thrown: unknown;
    await assert.rejects(
      annotateStep({ csv: file }, { blobs, ...SETTINGS }).catch((error: unknown) => {
        thrown = error;
        throw error;
      }),
      (e: unknown) =>
        e instanceof DomainError && e.kind === 'invalid' && e.field === 'file' && message.test(e.message),
    );
    const failure = stepFailure('annotate', thrown);
    assert.equal(failure.retryable, false);
    assert.match(failure.action, /upload a corrected version/);
  });
}
