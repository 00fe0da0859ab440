// The one thing service gateways do with a request: hand it to the service's request topic
// and answer with the reply. Which topic is read from topics.yaml through the consumer group.
import type { Runtime } from '../lib/runtime.ts';
import { intSetting } from '../lib/config.ts';
import { isDownload } from '../lib/blobs/download.ts';
import { checkIn, checkOut } from '../lib/blobs/claim-check.ts';
import type { RouteInput, Result, UploadedFile } from './kit/index.ts';

type Input = RouteInput<Record<string, unknown>, unknown>;

export interface Forwarder {
  /** Send `operation` with the validated path, query and body fields; answer the reply as JSON. */
  json(operation: string): (input: Input) => Promise<Result>;
  /** The same, for operations that reply with a stored file: answer it as a download. */
  download(operation: string): (input: Input) => Promise<Result>;
  /** Send `operation` with explicit fields (e.g. an upload's blob key); resolves to the reply value. */
  send(operation: string, fields: Record<string, unknown>, input: Input): Promise<unknown>;
  /** A reply that names a stored file, as a download. */
  asDownload(value: unknown): Result;
  /** An upload moved into the blob store: the fields that name it to the consumer. */
  upload(file: UploadedFile): Promise<UploadFields>;
  /** The client's fields plus the upload's; a client cannot name a blob itself. */
  withUpload(fields: object, upload: UploadFields | undefined): Record<string, unknown>;
}

export type UploadFields = {
  blob: string;
  filename: string;
};

/** Fields only the gateway sets: a client-given `blob` would let it read any stored blob. */
const UPLOAD_FIELDS = ['blob', 'filename'] as const;

export function forwarder(runtime: Runtime, group: string): Forwarder {
  const topic = runtime.catalog.topicReadBy(group).name;
  const timeoutMs = intSetting('LABLD_REQUEST_TIMEOUT_MS');
  const fieldsOf = (input: Input) => {
    const body = input.body && typeof input.body === 'object' ? (input.body as Record<string, unknown>) : {};
    return { ...input.params, ...input.query, ...body };
  };
  const send: Forwarder['send'] = async (operation, fields, input) => {
    const reply = await runtime.bus.request(
      topic,
      { operation, input: await checkIn(runtime.blobs, fields) },
      { timeoutMs, headers: { 'x-correlation-id': input.correlationId } },
    );
    return checkOut(runtime.blobs, reply);
  };
  const asDownload = (value: unknown): Result => {
    if (!isDownload(value)) throw new Error('the consumer did not reply with a download');
    return {
      body: { path: runtime.blobs.path(value.blob) },
      contentType: value.contentType,
      filename: value.filename,
    };
  };
  return {
    send,
    asDownload,
    upload: async (file) => ({ blob: await runtime.blobs.putFile(file.keep()), filename: file.filename }),
    withUpload: (fields, upload) => {
      const own: Record<string, unknown> = { ...fields };
      for (const name of UPLOAD_FIELDS) delete own[name];
      return { ...own, ...upload };
    },
    json: (operation) => async (input) => ({ json: await send(operation, fieldsOf(input), input) }),
    download: (operation) => async (input) => asDownload(await send(operation, fieldsOf(input), input)),
  };
}

export { type Download } from '../lib/blobs/download.ts';
