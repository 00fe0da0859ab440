// The mapper's operations: open the documents a request names, call the mapper domain, reply
// with JSON (types, entities) or a stored YAML download (mapping).
import { storeDownload } from '../lib/blobs/download.ts';
import { ClientError } from '../lib/errors.ts';
import { policyFromEnv } from '../lib/fetch/guarded-fetch.ts';
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
import type { Operation, OperationEnv } from './room.ts';

/** The URL in `field`, which the gateway requires; checked again for messages from elsewhere. */
function urlOf(input: Record<string, unknown>, field: string): string {
  const value = input[field];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ClientError(422, `${field}: a URL is required`, field);
  }
  return value.trim();
}

export function mapperOperations(env: OperationEnv): Record<string, Operation> {
  const { blobs } = env;
  const policy = policyFromEnv();
  const load = (input: Record<string, unknown>, field: string, signal: AbortSignal) =>
    loadDocument(urlOf(input, field), { field, blobs, policy, signal });

  return {
    types: async (input, { signal }) => listTypes(await load(input, 'url', signal)),
    entities: async (input, { signal }) => {
      const types = readTypes(input.types, 'types', DEFAULT_DATA_TYPES);
      const document = await load(input, 'url', signal);
      checkTypesNotCut(types, document, 'types');
      return listEntities(document, types);
    },
    mapping: async (input, { signal }) => {
      // Everything that needs no document is checked before anything is fetched.
      const options = readMappingOptions(input);
      urlOf(input, 'data_url');
      urlOf(input, 'template_url');
      const [data, template] = await Promise.all([
        load(input, 'data_url', signal),
        load(input, 'template_url', signal),
      ]);
      const mapping = generateMapping(options, data, template);
      return storeDownload(blobs, mapping.yaml, 'application/x-yaml', mapping.filename);
    },
  };
}
