// The converter's operations: open client URLs (guarded fetch, or labld's own stored files),
// call the converter domain, reply. Graphs travel by reference: a createrdf answer is stored
// as a blob and the gateway streams it.
import { createRdf, checkMappingAt, testMapping } from '../lib/converter/index.ts';
import { normalizeYarrrml, yarrrmlToRmlText, yarrrmlToSparqlText } from '../lib/converter/translate.ts';
import { validateRdf } from '../lib/converter/rdfvalidator.ts';
import { uploadedData, uploadedText } from '../lib/converter/upload.ts';
import { storeDownload } from '../lib/blobs/download.ts';
import { isStringLengthError, tooLarge } from '../lib/process/errors.ts';
import { policyFromEnv } from '../lib/fetch/guarded-fetch.ts';
import { baseUrl } from '../lib/services.ts';
import { publishStoredFile, textLoader } from '../lib/sources.ts';
import { statusLine } from '../lib/process/http-status.ts';
import type { OperationInputs } from '../lib/contracts/operations.ts';
import type { OperationContext, OperationEnv } from './request-consumer.ts';
import { catalogueFiles } from './stores.ts';
import type { ServiceOperations } from './service-operations.ts';

export function converterOperations(env: OperationEnv): ServiceOperations<'converter'> {
  const { blobs, documents: cache } = env;
  const policy = policyFromEnv();
  const loader = ({ signal, credential }: OperationContext) =>
    textLoader({ blobs, policy, signal, cache, catalogue: catalogueFiles(env.stores, credential) });
  const activity = (operation: string) => `${baseUrl()}/converter/api/${operation}`;
  /**
   * The JSON answer stored as a blob: graphs can be far larger than a bus message should be.
   * The interface embeds the graph as one JSON string, so it cannot stream: too long a text is
   * a 413 (and LABLD_MAX_OUTPUT_BYTES holds in storeDownload), never a cut-off answer.
   */
  const stored = async (value: unknown) => {
    let json: string;
    try {
      json = JSON.stringify(value);
    } catch (error) {
      if (!isStringLengthError(error)) throw error;
      throw tooLarge(
        'return_type: the answer holds the graph as one JSON string, and this graph is longer than a string can hold (about 512 MiB)',
        'return_type',
      );
    }
    return storeDownload(blobs, json, 'application/json', 'result.json');
  };
  const conversion = async (result: Awaited<ReturnType<typeof createRdf>>) =>
    stored({
      filename: result.filename,
      graph: result.graph,
      num_mappings_applied: result.num_mappings_applied,
      num_mappings_skipped: result.num_mappings_skipped,
    });

  /** The request of createrdf (and of test, which runs it). */
  const request = (input: OperationInputs['converter']['createrdf']) => ({
    mappingUrl: input.mapping_url,
    dataUrl: input.data_url,
    returnType: input.return_type ?? 'turtle',
    activity: activity('createrdf'),
  });

  return {
    createrdf: async (input, context) => conversion(await createRdf(request(input), loader(context))),
    createrdfupload: async (input, context) => {
      let dataUrl: string;
      let dataContent: string;
      if (input.blob !== undefined) {
        // The spec's multipart form: the uploaded descriptor, named by its stored-file URL
        // (published, since the graph's provenance hands it out).
        dataContent = await uploadedData(blobs.path(input.blob, 'file'));
        dataUrl =
          // uploadedData refused anything but UTF-8.
          input.data_url ||
          (await publishStoredFile(blobs, input.blob, input.filename || 'upload.json', 'utf-8'));
      } else {
        // The original's JSON form: data_url names the data, data_content is the data.
        dataUrl = input.data_url;
        dataContent = input.data_content;
      }
      return conversion(
        await createRdf(
          {
            mappingUrl: input.mapping_url,
            dataUrl,
            dataContent,
            dataContentField: input.blob !== undefined ? 'file' : 'data_content',
            returnType: input.return_type ?? 'turtle',
            activity: activity('createrdfupload'),
            upload: true,
          },
          loader(context),
        ),
      );
    },
    checkmapping: async (input, context) =>
      checkMappingAt({ mappingUrl: input.mapping_url, dataUrl: input.data_url }, loader(context)),
    test: async (input, context) => testMapping(request(input), loader(context), statusLine),
    rdfvalidator: async (input, context) =>
      validateRdf({ shapesUrl: input.shapes_url, rdfUrl: input.rdf_url }, loader(context)),
    yarrrmltorml: async (input, context) => {
      const mapping = await loader(context)(input.mapping_url, 'mapping_url');
      const out = await yarrrmlToRmlText(mapping.text, mapping.fileName);
      return storeDownload(blobs, out.body, 'text/turtle; charset=utf-8', out.filename);
    },
    yarrrmltosparql: async (input, context) => {
      const mapping = await loader(context)(input.mapping_url, 'mapping_url');
      const out = yarrrmlToSparqlText(mapping.text, mapping.fileName);
      return storeDownload(blobs, out.body, 'application/sparql-query; charset=utf-8', out.filename);
    },
    normalizeyarrrml: async (input, context) => {
      const source =
        input.blob !== undefined
          ? {
              text: await uploadedText(blobs.path(input.blob, 'file')),
              fileName: input.filename || 'mapping.yaml',
            }
          : await loader(context)(input.mapping_url, 'mapping_url');
      const out = normalizeYarrrml(
        source.text,
        source.fileName,
        input.blob !== undefined ? 'file' : 'mapping_url',
      );
      return storeDownload(blobs, out.body, 'application/yaml; charset=utf-8', out.filename);
    },
  };
}
