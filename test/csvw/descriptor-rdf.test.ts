// /api/rdf engine: the seed descriptors and CSVs give the original's golden Turtle (compared by
// isomorphism), whichever delimiter form the descriptor uses; bad input is a 4xx naming the
// field. Excluded from the golden comparison, and why:
// - prov:generatedAtTime of the conversion and the activity IRI are per run: the test passes
//   the golden's own values;
// - xsd:double lexical forms: rdflib's Turtle writer prints 190.0 as `1.9e+02`, labld writes
//   the canonical `1.9E2`; doubles are compared by value.
import assert from 'node:assert/strict';
import { createReadStream, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type * as RDF from '@rdfjs/types';
import fc from '../support/fc.ts';
import {
  descriptorToRdf,
  descriptorTurtle,
  type DescriptorInput,
  type DescriptorOptions,
  type LoadedResource,
  type ResourceLoader,
} from '../../lib/csvw/index.ts';
import { decimalAsDouble } from '../../lib/csvw/descriptor-cells.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { parse } from '../../lib/rdf/index.ts';
import { assertIsomorphic, doublesByValue } from '../support/rdf.ts';
import { rejection } from '../support/client-error.ts';
import { seedFixture, sharedDir } from '../support/shared.ts';
import { annotateFile } from '../annotator/support.ts';

const BASE = 'https://github.com/Mat-O-Lab/CSVToCSVW/raw/main/examples/';

/** Serves the seed folder under the original's example URLs; `overrides` replace files. */
function seedLoader(overrides: Record<string, string> = {}): ResourceLoader {
  return async (url: string): Promise<LoadedResource> => {
    const name = url.slice(BASE.length);
    if (Object.hasOwn(overrides, name)) return { text: overrides[name] as string };
    if (!url.startsWith(BASE) || name.includes('/'))
      throw new DomainError('invalid', `csv_url: cannot get ${url}`, 'csv_url');
    try {
      return { text: readFileSync(seedFixture(`csvtocsvw/${name}`), 'utf8') };
    } catch {
      throw new DomainError('not-found', `cannot get file at ${url}`, 'csv_url');
    }
  };
}

/** The golden's run-specific values (when it ran), so the rest compares exactly. */
function runOf(golden: string): { activityUrl: string; generatedAt: string } {
  const table = /csv:table-1 a csvw:Table[\s\S]*?prov:generatedAtTime "([^"]+)"/.exec(golden);
  return { activityUrl: 'http://localhost:5001/api/rdf', generatedAt: table?.[1] ?? '' };
}

/** describe's Turtle (written as text, not from quads), parsed back. */
async function turtleQuads(
  input: DescriptorInput,
  load: ResourceLoader,
  options: DescriptorOptions = {},
): Promise<RDF.Quad[]> {
  const { chunks } = await descriptorTurtle(input, load, options);
  const bytes: Uint8Array[] = [];
  for await (const chunk of chunks) bytes.push(chunk);
  return parse(Buffer.concat(bytes).toString('utf8'), 'turtle');
}

/** The golden graph, from the quads of /api/rdf and from describe's Turtle. */
async function assertGolden(name: string, load: ResourceLoader): Promise<void> {
  const golden = readFileSync(seedFixture(`csvtocsvw/${name}.ttl`), 'utf8');
  const input = { metadataUrl: `${BASE}${name}-metadata.json` };
  const expected = doublesByValue(await parse(golden, 'turtle'));
  const quads = await descriptorToRdf(input, load, runOf(golden));
  await assertIsomorphic(doublesByValue(quads), expected, `${name}.ttl`);
  const turtle = await turtleQuads(input, load, runOf(golden));
  await assertIsomorphic(doublesByValue(turtle), expected, `${name}.ttl from describe's Turtle`);
}

describe('descriptorToRdf (/api/rdf)', () => {
  it('gives the original output for example5 (descriptor and rows)', async () => {
    await assertGolden('example5', seedLoader());
  });

  it('gives the original output for example2 (a note, a tab-separated table of 700 rows)', async () => {
    await assertGolden('example2', seedLoader());
  });

  it('reads an old-Mac CR-only CSV as its LF twin (example2, the original output)', async () => {
    const csv = readFileSync(seedFixture('csvtocsvw/example2.csv'), 'utf8').replace(/\r?\n/g, '\r');
    await assertGolden('example2', seedLoader({ 'example2.csv': csv }));
  });

  it('reads a real tab delimiter as the original regex form "\\t"', async () => {
    const descriptor = readFileSync(seedFixture('csvtocsvw/example2-metadata.json'), 'utf8');
    assert.ok(descriptor.includes('"delimiter": "\\\\t"'));
    const withTab = descriptor.replace('"delimiter": "\\\\t"', '"delimiter": "\\t"');
    const run = { generatedAt: '2026-01-01T00:00:00Z' };
    const url = { metadataUrl: `${BASE}example2-metadata.json` };
    const withoutDelimiter = (quads: RDF.Quad[]): RDF.Quad[] =>
      quads.filter((q) => q.predicate.value !== 'http://www.w3.org/ns/csvw#delimiter');
    const regexForm = await descriptorToRdf(url, seedLoader(), run);
    const charForm = await descriptorToRdf(url, seedLoader({ 'example2-metadata.json': withTab }), run);
    await assertIsomorphic(withoutDelimiter(charForm), withoutDelimiter(regexForm), 'tab vs \\t');
  });

  it('reads the regenerated v1.3.5 descriptor of example5 (floats as 5.0, escaped UTF-8)', async () => {
    const load = seedLoader({
      'example5-metadata.json': readFileSync(
        seedFixture('csvtocsvw/regenerated-v1.3.5/example5-metadata.json'),
        'utf8',
      ),
    });
    const quads = await descriptorToRdf({ metadataUrl: `${BASE}example5-metadata.json` }, load);
    const rows = quads.filter((q) => q.predicate.value === 'http://www.w3.org/ns/csvw#row');
    assert.equal(rows.length, 11);
  });

  it("describe's Turtle is the graph of the quads for any cells (quotes, line breaks, lists, numbers of any form)", async () => {
    const csv = (text: string) => `"${text.replaceAll('"', '""')}"`;
    const number = fc.oneof(
      fc.double().map(String),
      fc.integer().map(String),
      fc.constantFrom('1,5', ' 12 ', '-.5', 'abc', '1e5', '', '9,286.44727', '1.0000000000000002'),
      // Written from their digits (an export's form, zeros, the edges of the normal doubles).
      fc.stringMatching(/^[+-]?[0-9]{1,7}(?:\.[0-9]{0,7})?[eE][+-]?[0-9]{1,3}$/),
      fc.constantFrom('6.8902e-005', '-0.0e-3', '0E0', '9.99e300', '1e-300', '1e-301', '00.0100'),
    );
    const iri = fc.stringMatching(/^[a-z0-9/#é%_-]{0,8}$/).map((tail) => `http://x.org/${tail}`);
    const list = fc.array(iri, { minLength: 0, maxLength: 3 }).map((items) => items.join(' '));
    const text = fc.string({ maxLength: 12 });
    const row = fc.tuple(
      text,
      number,
      number,
      number,
      list,
      text,
      list,
      list,
      number,
      text,
      number,
      number,
      text,
    );
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 4 }), async (rows) => {
        const header = readFileSync(seedFixture('csvtocsvw/example5.csv'), 'utf8').split('\n')[0] as string;
        const lines = rows.map((cells, i) => [String(i), ...cells].map(csv).join(','));
        const load = seedLoader({ 'example5.csv': `${header}\n${lines.join('\n')}\n` });
        const input = { metadataUrl: `${BASE}example5-metadata.json` };
        const run = { generatedAt: '2026-01-01T00:00:00Z' };
        await assertIsomorphic(
          await turtleQuads(input, load, run),
          await descriptorToRdf(input, load, run),
          'turtle',
        );
      }),
      { numRuns: 60 },
    );
  });

  it('takes csv_url over the descriptor url', async () => {
    const quads = await descriptorToRdf(
      { metadataUrl: `${BASE}example5-metadata.json`, csvUrl: `${BASE}example5.csv` },
      seedLoader(),
    );
    assert.ok(quads.some((q) => q.object.value === `${BASE}example5.csv/row=11`));
  });

  it('a descriptor without a table is a 422 naming metadata_url', async () => {
    const error = await rejection(
      descriptorToRdf({ metadataUrl: `${BASE}example3-metadata.json` }, seedLoader()),
    );
    assert.equal(error.kind, 'invalid');
    assert.equal(error.field, 'metadata_url');
    assert.match(error.message, /no table/);
  });

  it('malformed metadata JSON is a 422 naming metadata_url', async () => {
    const load = seedLoader({ 'bad-metadata.json': '{"@context": "http://www.w3.org/ns/csvw", "tables": [' });
    const error = await rejection(descriptorToRdf({ metadataUrl: `${BASE}bad-metadata.json` }, load));
    assert.equal(error.kind, 'invalid');
    assert.equal(error.field, 'metadata_url');
  });

  it('an unreachable CSV keeps the loader error (4xx naming csv_url)', async () => {
    const error = await rejection(
      descriptorToRdf(
        { metadataUrl: `${BASE}example5-metadata.json`, csvUrl: `${BASE}missing.csv` },
        seedLoader(),
      ),
    );
    assert.equal(error.kind, 'not-found');
    assert.equal(error.field, 'csv_url');
  });

  it('a ragged row is a 422 naming csv_url and the line', async () => {
    const csv = readFileSync(seedFixture('csvtocsvw/example5.csv'), 'utf8').replace('\n1,', '\n1,extra,');
    const error = await rejection(
      descriptorToRdf({ metadataUrl: `${BASE}example5-metadata.json` }, seedLoader({ 'example5.csv': csv })),
    );
    assert.equal(error.kind, 'invalid');
    assert.equal(error.field, 'csv_url');
    assert.match(error.message, /line 3/);
  });
});

describe('/api/rdf on a multi-block machine export', () => {
  it('a table ends where a block of another width starts with text (MTS 793: no blank line before it)', async () => {
    const file = `${sharedDir}fixtures/real-exports/mts793-de-druck-specimen.dat`;
    const url = 'http://example.org/specimen.dat';
    const { descriptor } = await annotateFile(file, url);
    const load: ResourceLoader = async (at) =>
      at === url ? { body: createReadStream(file) } : { text: JSON.stringify(descriptor) };
    const quads = await descriptorToRdf({ metadataUrl: `${url}-metadata.json` }, load);
    // By reading the file: `Probebezeichnung<TAB>Wolf 8.2 Probe 2` heads 4 key/value lines that
    // `Bediener Information Ende` (one field) closes; then 2 rows, then 455 rows.
    const rows = quads.filter((q) => q.predicate.value === 'http://www.w3.org/ns/csvw#row');
    assert.equal(rows.length, 4 + 2 + 455);
  });
});

describe('decimalAsDouble (the numeric cells fast path)', () => {
  /** xsd:double canonical form by way of the number, as the XSD spec defines it. */
  const canonical = (value: number): string => {
    const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
    return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
  };
  const decimal = fc
    .tuple(
      fc.constantFrom('', '-', '+'),
      fc.stringMatching(/^[0-9]{0,12}$/),
      fc.option(fc.stringMatching(/^[0-9]{0,12}$/), { nil: undefined }),
      fc.option(fc.stringMatching(/^[eE][+-]?[0-9]{1,4}$/), { nil: undefined }),
    )
    .map(
      ([sign, whole, fraction, exponent]) =>
        `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent ?? ''}`,
    )
    .filter((text) => /^[+-]?\.?[0-9]/.test(text)); // a cell reaches it trimmed, digits first

  it('gives the canonical double of any decimal, with an exponent or not, or leaves it to the general path', () => {
    fc.assert(
      fc.property(decimal, (text) => {
        const fast = decimalAsDouble(text);
        const value = Number(text);
        if (fast === undefined) {
          const significant = text
            .replace(/[eE].*$/, '')
            .replace(/[^0-9]/g, '')
            .replace(/^0+/, '')
            .replace(/0+$/, '');
          const outside = Math.abs(Math.log10(Math.abs(value))) > 299; // past ±1E300, or 0 or ∞ by rounding
          assert.ok(significant.length > 15 || outside, `${text} left to the general path`);
        } else {
          assert.equal(fast, canonical(value), text);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what is not a decimal, and exponents past the normal doubles', () => {
    for (const text of [
      '',
      '.',
      '-',
      'e5',
      '1e',
      '1e+',
      '1e5.5',
      '1,5',
      '1.2.3',
      '0x10',
      'Infinity',
      ' 1',
      '1 ',
    ])
      assert.equal(decimalAsDouble(text), undefined, text);
    for (const text of ['1e301', '1.5e-301', '1E+12345', '0.001e-299'])
      assert.equal(decimalAsDouble(text), undefined, text);
    assert.equal(decimalAsDouble('-0.0'), '0.0E0');
    assert.equal(decimalAsDouble('-0e7'), '0.0E0');
    assert.equal(decimalAsDouble('190'), '1.9E2');
    assert.equal(decimalAsDouble('-0.050'), '-5.0E-2');
    // The seed export's number form.
    assert.equal(decimalAsDouble('6.8902e-005'), '6.8902E-5');
    assert.equal(decimalAsDouble('8.61275e-005'), '8.61275E-5');
    assert.equal(decimalAsDouble('1.e5'), '1.0E5');
  });
});
