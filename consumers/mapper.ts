// The mapper's operations: open the documents a request names, call the mapper domain, reply
// with JSON (types, entities) or a stored YAML download (mapping).
import { storeDownload } from '../lib/blobs/download.ts';
import { policyFromEnv } from '../lib/fetch/guarded-fetch.ts';
import { textLoader } from '../lib/sources.ts';
import {
  DEFAULT_DATA_TYPES,
  checkTypesNotCut,
  generateMapping,
  listEntities,
  listTypes,
  loadDocument,
  readMappingOptions,
  readTypes,
} from '../lib/mapper/index.ts';
import type { OperationEnv } from './request-consumer.ts';
import { catalogueFiles } from './stores.ts';
import type { ServiceOperations } from './service-operations.ts';

export function mapperOperations(env: OperationEnv): ServiceOperations<'mapper'> {
  const { blobs, documents: cache } = env;
  const policy = policyFromEnv();
  const catalogue = catalogueFiles(env.stores);
  const load = (url: string, field: string, signal: AbortSignal) =>
    loadDocument(url.trim(), field, textLoader({ blobs, policy, signal, cache, catalogue }));

  return {
    types: async (input, { signal }) => listTypes(await load(input.url, 'url', signal)),
    entities: async (input, { signal }) => {
      const types = readTypes(input.types, 'types', DEFAULT_DATA_TYPES);
      const document = await load(input.url, 'url', signal);
      checkTypesNotCut(types, document, 'types');
      return listEntities(document, types);
    },
    mapping: async (input, { signal }) => {
      // Everything that needs no document is checked before anything is fetched.
      const options = readMappingOptions(input);
      const [data, template] = await Promise.all([
        load(input.data_url, 'data_url', signal),
        load(input.template_url, 'template_url', signal),
      ]);
      const mapping = generateMapping(options, data, template);
      return storeDownload(blobs, mapping.yaml, 'application/x-yaml', mapping.filename);
    },
  };
}
