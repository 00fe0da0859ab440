// Helpers of the mapper tests: the seed documents (MapToMethod's example request, descriptor,
// template and golden outputs), parsed as the mapper reads them.
import yaml from 'js-yaml';
import { readDocument, type RdfDocument } from '../../lib/mapper/index.ts';
import { readSeed } from '../support/shared.ts';

export const read = readSeed;
export const readJson = <T = unknown>(path: string): T => JSON.parse(read(path)) as T;

/** MapToMethod's examples/request.json. */
export interface SeedRequest {
  data_url: string;
  template_url: string;
  map: Record<string, string>;
}
export const seedRequest = (): SeedRequest => readJson<SeedRequest>('maptomethod/request.json');

export const DESCRIPTOR_PATH = 'csvtocsvw/example-metadata.json';
export const TEMPLATE_PATH = 'maptomethod/templates/DIN_EN_ISO_527-3.drawio.ttl';

/** The seed descriptor and template, read under the URLs of request.json. */
export async function seedDocuments(): Promise<{ data: RdfDocument; template: RdfDocument }> {
  const request = seedRequest();
  const [data, template] = await Promise.all([
    readDocument(request.data_url, read(DESCRIPTOR_PATH), { field: 'data_url' }),
    readDocument(request.template_url, read(TEMPLATE_PATH), { field: 'template_url' }),
  ]);
  return { data, template };
}

/** The golden example-map.yaml as YAML data. */
export const goldenMapping = (): Record<string, unknown> =>
  yaml.load(read('maptomethod/example-map.yaml')) as Record<string, unknown>;

/**
 * The rule request.json's misspelt entry gets once corrected to `table-1-Pruefzeit`: written
 * by hand in the form of the golden file's column rules.
 */
export const EXPERIMENT_TIME_RULE = {
  sources: ['columns'],
  s: '$(@id)',
  condition: {
    function: 'equal',
    parameters: [
      ['str1', '$(name)'],
      ['str2', 'Pruefzeit'],
    ],
  },
  po: [['http://purl.obolibrary.org/obo/RO_0010002', 'template:ExperimentTimeInterval~iri']],
};

/** Every string in `value` with `from` replaced by `to` (golden data moved to other URLs). */
export function replaceDeep<T>(value: T, from: string, to: string): T {
  return JSON.parse(JSON.stringify(value).replaceAll(from, to)) as T;
}
