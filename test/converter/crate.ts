// RO-Crate ZIPs for the converter's tests, written with yazl.
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { tempDir } from '../support/temp.ts';

export const CRATE_METADATA_TEXT = JSON.stringify({
  '@context': 'https://w3id.org/ro/crate/1.1/context',
  '@graph': [
    { '@id': 'ro-crate-metadata.json', '@type': 'CreativeWork', about: { '@id': './' } },
    { '@id': './', '@type': 'Dataset', name: 'Tensile test 42' },
  ],
});

/** A mapping over the crate metadata: the Dataset entity's name. */
export const CRATE_MAPPING = `prefixes: {schema: 'http://schema.org/', ex: 'http://example.org/'}
base: 'http://example.org/crate/'
sources:
  items: {access: 'crate.json', iterator: "$['@graph'][*]", referenceFormulation: jsonpath}
mappings:
  dataset:
    sources: [items]
    s: ex:dataset
    condition: {function: equal, parameters: [[str1, $(@type)], [str2, Dataset]]}
    po: [[schema:name, $(name)]]
`;

/** Writes a ZIP of `entries` (name → content; compressed) and resolves with its path. */
export async function writeZip(entries: Record<string, string | Buffer>): Promise<string> {
  const path = join(tempDir('labld-crate-'), 'crate.zip');
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  await finished(out);
  return path;
}
