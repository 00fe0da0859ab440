// Fixtures of the converter tests: the seed's RDFConverter examples, served to the domain by
// a loader that maps the URLs the mappings name to the fixture files.
import { DomainError } from '../../lib/process/errors.ts';
import type { Loader } from '../../lib/converter/index.ts';
import { readSeed } from '../support/shared.ts';

export { readSeed };

export const DESCRIPTOR_URL =
  'https://github.com/Mat-O-Lab/CSVToCSVW/raw/main/examples/example-metadata.json';
export const TEMPLATE_URL = 'https://github.com/Mat-O-Lab/MSEO/raw/main/methods/DIN_EN_ISO_527-3.drawio.ttl';
export const BATCH_URL =
  'https://raw.githubusercontent.com/eclipse-tractusx/sldt-semantic-models/refs/heads/main/io.catenax.batch/3.0.1/gen/Batch.json';
export const CSVW_MAPPING_URL =
  'https://github.com/Mat-O-Lab/RDFConverter/raw/main/examples/csvw-template-map.yaml';
export const BATCH_MAPPING_URL =
  'https://github.com/Mat-O-Lab/RDFConverter/raw/main/examples/catenax-batch-map.yaml';

/** URL → fixture path: what the seed's URLs answered when the golden files were made. */
export const SEED_FILES: Record<string, string> = {
  [DESCRIPTOR_URL]: 'csvtocsvw/example-metadata.json',
  [TEMPLATE_URL]: 'maptomethod/templates/DIN_EN_ISO_527-3.drawio.ttl',
  [`${TEMPLATE_URL}/`]: 'maptomethod/templates/DIN_EN_ISO_527-3.drawio.ttl',
  [BATCH_URL]: 'rdfconverter/Batch.json',
  [CSVW_MAPPING_URL]: 'rdfconverter/csvw-template-map.yaml',
  [BATCH_MAPPING_URL]: 'rdfconverter/catenax-batch-map.yaml',
};

/** A loader over the seed files plus `extra` texts; anything else is unreachable (422). */
export function seedLoader(extra: Record<string, string> = {}, seen: string[] = []): Loader {
  return async (url, field) => {
    seen.push(url);
    const text = extra[url] ?? (SEED_FILES[url] ? readSeed(SEED_FILES[url]) : undefined);
    if (text === undefined) throw new DomainError('invalid', `${field}: ${url} is not reachable`, field);
    return { url, text, fileName: decodeURIComponent(url.split('/').pop() ?? '') };
  };
}
