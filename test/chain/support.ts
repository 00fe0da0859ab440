// Fixtures of the chain tests: a fresh blob store, the seed CSV as a catalogue file, the seed
// mapping and two decoys written here — one for another kind of data, one a partial match.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BlobStore } from '../../lib/blobs/blob-store.ts';
import type { ChainFile, MappingEntry } from '../../lib/chain/index.ts';
import { readSeed, seedFixture } from '../support/shared.ts';
import { tempDir } from '../support/temp.ts';

export const store = () => new BlobStore(tempDir('labld-chain-'));

/** Catalogue download URLs, as the consumers will hand them in. */
export const DATASET = 'http://localhost:8000/dataset/4f1c/resource';
export const resourceUrl = (id: string, name: string) => `${DATASET}/${id}/download/${name}`;

/** The seed's example.csv (latin-1, tab-separated, 16 metadata lines) as an uploaded file. */
export async function seedCsv(blobs: BlobStore): Promise<ChainFile> {
  const blob = await blobs.putBytes(readFileSync(seedFixture('csvtocsvw/example.csv')));
  return { url: resourceUrl('r-csv', 'example.csv'), blob, name: 'example.csv' };
}

export const SEED_MAPPING_TEXT = readSeed('rdfconverter/csvw-template-map.yaml');

/** `text` with each [from, to] replaced, asserting that every `from` was there. */
function edited(text: string, edits: [string, string][]): string {
  let out = text;
  for (const [from, to] of edits) {
    assert.ok(out.includes(from), `the seed mapping no longer contains ${from}`);
    out = out.replace(from, to);
  }
  return out;
}

/**
 * The seed mapping with two of its seven conditions spelt otherwise: a case difference (the
 * spec's rule 4: names match case-sensitively) and a longer label. 5 rules apply, 2 are skipped.
 */
export const PARTIAL_MAPPING_TEXT = edited(SEED_MAPPING_TEXT, [
  ['[str2, Probenbreite b0]', '[str2, Probenbreite B0]'],
  ['[str2, Vorkraft]', '[str2, Vorkraft F0]'],
]);

/** A mapping for another kind of data (a hardness test): none of its 3 rules applies to a tensile test. */
export const HARDNESS_MAPPING_TEXT = `prefixes:
  obo: 'http://purl.obolibrary.org/obo/'
  template: 'https://example.org/methods/hardness-vickers.ttl/'
sources:
  columns: {access: 'https://example.org/hardness-metadata.json', iterator: '$..columns[*]', referenceFormulation: jsonpath}
  annotations: {access: 'https://example.org/hardness-metadata.json', iterator: '$.notes[*]', referenceFormulation: jsonpath}
mappings:
  HardnessValue:
    sources: [annotations]
    s: $(@id)
    condition:
      function: equal
      parameters:
      - [str1, $(label)]
      - [str2, Haerte HV10]
    po:
    - ['http://purl.obolibrary.org/obo/RO_0010002', 'template:HardnessValue~iri']
  TestForce:
    sources: [annotations]
    s: $(@id)
    condition:
      function: equal
      parameters:
      - [str1, $(label)]
      - [str2, Pruefkraft F]
    po:
    - ['http://purl.obolibrary.org/obo/RO_0010002', 'template:TestForce~iri']
  IndentationDiagonal:
    sources: [columns]
    s: $(@id)
    condition:
      function: equal
      parameters:
      - [str1, $(name)]
      - [str2, Eindruckdiagonale]
    po:
    - ['http://purl.obolibrary.org/obo/RO_0010002', 'template:IndentationDiagonal~iri']
`;

export const BROKEN_MAPPING_TEXT = 'prefixes:\n  ex: http://example.org/\nmappings: [\n  rule: {s: $(@id)\n';

export const mapping = (id: string, name: string, text: string): MappingEntry => ({
  name,
  url: resourceUrl(id, name),
  text,
});

export const SEED_MAPPING = mapping('m-seed', 'csvw-template-map.yaml', SEED_MAPPING_TEXT);
export const PARTIAL_MAPPING = mapping('m-partial', 'tensile-partial-map.yaml', PARTIAL_MAPPING_TEXT);
export const HARDNESS_MAPPING = mapping('m-hardness', 'hardness-map.yaml', HARDNESS_MAPPING_TEXT);
export const BROKEN_MAPPING = mapping('m-broken', 'broken-map.yaml', BROKEN_MAPPING_TEXT);
