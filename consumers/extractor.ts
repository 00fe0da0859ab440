// The extractor's operations: read openBIS with the caller's session, build the record, store
// it in the negotiated representation and reply with it by reference; a file's bytes and the
// export bundle are streamed into the blob store, never held whole, as a growing blob that the
// gateway serves while it is written (lib/blobs/growing.ts).
import { storeDownload, storeDownloadStream } from '../lib/blobs/download.ts';
import { extract, distributionSource, type RecordRequest } from '../lib/extractor/extract.ts';
import { OpenbisClient, openbisPolicy, openbisUrl } from '../lib/extractor/openbis/client.ts';
import { intSetting } from '../lib/process/config.ts';
import { RecordIris } from '../lib/extractor/records/iris.ts';
import { downloadOf } from '../lib/extractor/records/media-types.ts';
import { render } from '../lib/extractor/render.ts';
import { exportBundle } from '../lib/extractor/bundle.ts';
import { baseUrl, services } from '../lib/services.ts';
import type { OperationInputs } from '../lib/contracts/operations.ts';
import type { OperationEnv } from './request-consumer.ts';
import type { ServiceOperations } from './service-operations.ts';

type Inputs = OperationInputs['extractor'];

/** `{extractor_url}`: records' namespace and where they are served. */
export const extractorUrl = (): string => `${baseUrl()}${services.extractor.basePath}`;

export function extractorOperations(env: OperationEnv): ServiceOperations<'extractor'> {
  const { blobs } = env;
  const iris = () => new RecordIris(extractorUrl());

  const answer = async (
    request: RecordRequest,
    input: { session: string; representation?: Inputs['object']['representation'] },
    signal: AbortSignal,
    name: string,
  ) => {
    const client = new OpenbisClient({ signal });
    const record = await extract(client, input.session, iris(), request);
    const out = await render(record, input.representation ?? 'jsonld');
    return storeDownload(blobs, out.body, out.contentType, `${name}.${out.extension}`);
  };

  return {
    object: (input, { signal }) => answer({ kind: 'object', id: input.perm_id }, input, signal, 'object'),
    dataset: (input, { signal }) => answer({ kind: 'dataset', id: input.perm_id }, input, signal, 'dataset'),
    collection: (input, { signal }) =>
      answer({ kind: 'collection', id: input.perm_id }, input, signal, 'collection'),
    project: (input, { signal }) => answer({ kind: 'project', id: input.perm_id }, input, signal, 'project'),
    space: (input, { signal }) => answer({ kind: 'space', id: input.perm_id }, input, signal, 'space'),
    user: (input, { signal }) => answer({ kind: 'user', id: input.user_id }, input, signal, 'user'),
    class: (input, { signal }) =>
      answer({ kind: 'class', id: input.object_type_code }, input, signal, 'class'),
    object_property: (input, { signal }) =>
      answer({ kind: 'object_property', id: input.property_type_code }, input, signal, 'object_property'),
    instance: (input, { signal }) => answer({ kind: 'instance' }, input, signal, 'instance'),
    search: (input, { signal }) => answer({ kind: 'search', query: input.query }, input, signal, 'search'),
    distribution: async (input, { signal }) => {
      if (!input.download) {
        return answer(
          { kind: 'distribution', id: input.perm_id, path: input.path },
          input,
          signal,
          'distribution',
        );
      }
      const client = new OpenbisClient({ signal });
      const { storeUrl } = await distributionSource(client, input.session, input.perm_id, input.path);
      const file = await client.download(storeUrl, input.session, input.perm_id, input.path);
      const { contentType, filename } = downloadOf(input.path);
      return storeDownloadStream(blobs, file.body, contentType, filename, { signal, growing: input.growing });
    },
    export_bundle: (input, { signal }) => {
      // Each file may take as long as the bundle may (the fetch's own limit is for documents).
      const base = openbisUrl();
      const policy = { ...openbisPolicy(base), timeoutMs: intSetting('LABLD_EXTRACTOR_BUNDLE_TIMEOUT_MS') };
      const client = new OpenbisClient({ url: base.href, policy, signal });
      return exportBundle(
        { client, session: input.session, iris: iris(), blobs, signal, growing: input.growing },
        input,
      );
    },
  };
}
