// The annotator's operations: open the CSV (or descriptor), call the annotator domain, store
// the output and reply with it by reference.
import { Readable } from 'node:stream';
import {
  annotate,
  charsetName,
  rdfDownloadName,
  renderDescriptor,
  unitIndex,
} from '../lib/annotator/index.ts';
import { descriptorGraph } from '../lib/csvw/index.ts';
import { returnTypeInfo, serializeStream } from '../lib/rdf/index.ts';
import { storeDownload, storeDownloadStream } from '../lib/blobs/download.ts';
import { intSetting } from '../lib/process/config.ts';
import { publish, recordCharset } from '../lib/blobs/published.ts';
import { openSource, storedFileUrl } from '../lib/sources.ts';
import { policyFromEnv } from '../lib/fetch/guarded-fetch.ts';
import { baseUrl, services } from '../lib/services.ts';
import type { OperationInputs } from '../lib/contracts/operations.ts';
import type { OperationEnv } from './request-consumer.ts';
import { catalogueFiles } from './stores.ts';
import type { ServiceOperations } from './service-operations.ts';

type Inputs = OperationInputs['annotator'];

/** The activity of the provenance: the endpoint, as the original named it by its request URL. */
const activity = (path: string) => `${baseUrl()}${services.annotator.basePath}${path}`;

export function annotatorOperations(env: OperationEnv): ServiceOperations<'annotator'> {
  const { blobs } = env;
  const policy = policyFromEnv();
  unitIndex(); // the QUDT vocabulary is indexed at start-up, not on the first request

  const describe = async (
    open: () => Readable,
    source: { csvUrl: string; fileName: string; field: 'data_url' | 'file'; path: string },
    input: Inputs['annotate'] | Inputs['annotate_upload'],
    readWith?: (encoding: string) => Promise<void>,
  ) => {
    const { descriptor, metadataFileName, encoding } = await annotate(
      { open, csvUrl: source.csvUrl, fileName: source.fileName, field: source.field },
      { encoding: input.encoding ?? 'auto', provenance: { activity: activity(source.path) } },
    );
    await readWith?.(encoding);
    const out = await renderDescriptor(descriptor, input.return_type ?? 'json-ld', {
      metadataFileName,
    });
    return storeDownload(blobs, out.body, out.contentType, out.filename);
  };

  return {
    annotate: async (input, { signal, credential }) => {
      const catalogue = catalogueFiles(env.stores, credential);
      const url = input.data_url;
      const options = { field: 'data_url', blobs, policy, signal, catalogue };
      const source = await openSource(url, options);
      const csv = {
        csvUrl: url,
        fileName: source.fileName,
        field: 'data_url' as const,
        path: '/api/annotate',
      };
      // A second read (auto-detection that has to restart in a legacy encoding) fetches again.
      let fresh = true;
      const open = () => {
        if (fresh) {
          fresh = false;
          return source.body;
        }
        return Readable.from(
          (async function* () {
            yield* (await openSource(url, options)).body;
          })(),
        );
      };
      return describe(open, csv, input);
    },
    annotate_upload: async (input) => {
      const key = input.blob;
      const fileName = input.filename || 'upload.csv';
      // Published here, where its URL is handed out: the descriptor names the CSV by it.
      const id = await publish(blobs, key, fileName);
      const csv = {
        csvUrl: storedFileUrl(id, fileName),
        fileName,
        field: 'file' as const,
        path: '/api/annotate_upload',
      };
      // The stored file is served with the encoding it was read in (a latin-1 CSV as latin-1).
      const readWith = (encoding: string) => recordCharset(blobs, id, charsetName(encoding));
      return describe(() => blobs.open(key, 'file'), csv, input, readWith);
    },
    rdf: async (input, { signal, credential }) => {
      const catalogue = catalogueFiles(env.stores, credential);
      // Bytes, not text: the CSV is decoded in its dialect's encoding, and streamed.
      const load = async (url: string, field: string) => {
        const source = await openSource(url, { field, blobs, policy, signal, catalogue });
        return { body: source.body, contentType: source.contentType };
      };
      const returnType = input.return_type ?? 'turtle';
      const format = returnTypeInfo(returnType);
      // Made, written and stored as the CSV streams: complete, or an error and nothing stored.
      const graph = await descriptorGraph(
        { metadataUrl: input.metadata_url, csvUrl: input.csv_url || undefined },
        load,
        { activityUrl: activity('/api/rdf') },
      );
      const body = serializeStream(graph.batches, format.format, {
        prefixes: graph.prefixes,
        maxBufferedTriples: intSetting('LABLD_MAX_BUFFERED_TRIPLES'),
        limitName: 'LABLD_MAX_BUFFERED_TRIPLES',
      });
      const filename = rdfDownloadName(graph.csvUrl, returnType);
      return storeDownloadStream(blobs, body, format.contentType, filename, { signal });
    },
  };
}
