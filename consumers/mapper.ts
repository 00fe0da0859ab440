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
import type { OperationContext, OperationEnv } from './request-consumer.ts';
import { catalogueFiles } from './stores.ts';
import type { ServiceOperations } from './service-operations.ts';

export function mapperOperations(env: OperationEnv): ServiceOperations<'mapper'> {
  const { blobs, documents: cache } = env;
  const policy = policyFromEnv();
  const load = (url: string, field: string, { signal, credential }: OperationContext) =>
    loadDocument(
      url.trim(),
      field,
      textLoader({ blobs, policy, signal, cache, catalogue: catalogueFiles(env.stores, credential) }),
    );

  return {
    types: async (input, context) => listTypes(await load(input.url, 'url', context)),
    entities: async (input, context) => {
      const types = readTypes(input.types, 'types', DEFAULT_DATA_TYPES);
      const document = await load(input.url, 'url', context);
      checkTypesNotCut(types, document, 'types');
      return listEntities(document, types);
    },
    mapping: async (input, context) => {
      // Everything that needs no document is checked before anything is fetched.
      const options = readMappingOptions(input);
      const [data, template] = await Promise.all([
        load(input.data_url, 'data_url', context),
        load(input.template_url, 'template_url', context),
      ]);
      const mapping = generateMapping(options, data, template);
      return storeDownload(blobs, mapping.yaml, 'application/x-yaml', mapping.filename);
    },
  };
}
