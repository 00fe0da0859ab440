// The annotator's operations: open the CSV (or descriptor), call the annotator domain, store
// the output and reply with it by reference.
import type { Readable } from 'node:stream';
import { annotate, renderDescriptor } from '../lib/annotator/index.ts';
import { descriptorToRdf } from '../lib/csvw/index.ts';
import { serialize, returnTypeInfo } from '../lib/rdf/index.ts';
import { storeDownload } from '../lib/blobs/download.ts';
import { openSource, storedFileUrl } from '../lib/sources.ts';
import { policyFromEnv } from '../lib/fetch/guarded-fetch.ts';
import type { Runtime } from '../lib/runtime.ts';
import type { Operation } from './room.ts';

const text = (value: unknown) => String(value ?? '');

export function annotatorOperations(runtime: Runtime): Record<string, Operation> {
  const { blobs } = runtime;
  const policy = policyFromEnv();

  const describe = async (
    open: () => Readable,
    csvUrl: string,
    fileName: string,
    input: Record<string, unknown>,
  ) => {
    const { descriptor } = await annotate(
      { open, csvUrl, fileName },
      { encoding: text(input.encoding || 'auto') },
    );
    const out = await renderDescriptor(descriptor, text(input.return_type || 'json-ld'));
    return storeDownload(blobs, out.body, out.contentType, out.filename);
  };

  return {
    annotate: async (input, { signal }) => {
      const source = await openSource(text(input.data_url), { field: 'data_url', blobs, policy, signal });
      return describe(() => source.body, text(input.data_url), source.fileName, input);
    },
    annotate_upload: async (input) => {
      const key = text(input.blob);
      const fileName = text(input.filename) || 'upload.csv';
      return describe(() => blobs.open(key, 'file'), storedFileUrl(key, fileName), fileName, input);
    },
    rdf: async (input, { signal }) => {
      const load = async (url: string, field: string) => {
        const source = await openSource(url, { field, blobs, policy, signal });
        return { text: await source.text(), contentType: source.contentType };
      };
      const quads = await descriptorToRdf(
        { metadataUrl: text(input.metadata_url), csvUrl: input.csv_url ? text(input.csv_url) : undefined },
        load,
      );
      const format = returnTypeInfo(input.return_type ?? 'turtle');
      const name =
        text(input.metadata_url)
          .split('/')
          .pop()
          ?.replace(/\.[^.]*$/, '') || 'graph';
      return storeDownload(
        blobs,
        await serialize(quads, format.format),
        format.contentType,
        `${name}${format.extension}`,
      );
    },
  };
}
