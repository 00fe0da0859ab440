// The one thing service gateways do with a request: hand it to the service's request topic
// and answer with the reply. Which topic is read from topics.yaml through the consumer group.
import type { Readable } from 'node:stream';
import type { Runtime } from '../app/runtime.ts';
import { baseUrl, requestGroupOf, type ServiceName } from '../lib/services.ts';
import {
  CREDENTIAL_HEADER,
  credentialHeader,
  credentialOf,
  type Credential,
} from '../lib/catalogue/auth/actor.ts';
import { checkRequest, declaredFields } from '../lib/contracts/requests.ts';
import type { OperationInputs, OperationName } from '../lib/contracts/operations.ts';
import { intSetting } from '../lib/process/config.ts';
import { isDownload, type Download } from '../lib/blobs/download.ts';
import { followGrowing, newGrowingId } from '../lib/blobs/growing.ts';
import { checkIn, checkOut } from '../lib/blobs/claim-check.ts';
import type { RouteInput, Result, UploadedFile } from './kit/index.ts';

type Input = RouteInput<Record<string, unknown>, unknown>;

export interface Forwarder<S extends ServiceName = ServiceName> {
  /** Send `operation` with the validated path, query and body fields; answer the reply as JSON. */
  json(operation: OperationName<S>): (input: Input) => Promise<Result>;
  /** The same, for operations that reply with a stored file: answer it as a download. */
  download(operation: OperationName<S>): (input: Input) => Promise<Result>;
  /**
   * Send `operation` with explicit fields (e.g. an upload's blob key); resolves to the reply
   * value. Fields the operation does not declare are left out; the rest must fit its contract.
   */
  send<O extends OperationName<S>>(
    operation: O,
    fields: OperationInputs[S][O],
    input: Input,
    /** An operation that may run longer than LABLD_REQUEST_TIMEOUT_MS (a bundle of large files). */
    options?: { timeoutMs?: number },
  ): Promise<unknown>;
  /** A reply that names a stored file, as a download. */
  asDownload(value: unknown): Result;
  /**
   * Send an operation that stores a file (its contract has `growing`) and answer the file while
   * the consumer writes it (lib/blobs/growing.ts): resolves at its first byte, or rejects with
   * the reply's error when that comes first. `file` is its type and name, known before the reply.
   */
  streamed<O extends OperationName<S>>(
    operation: O,
    fields: OperationInputs[S][O],
    input: Input,
    file: { contentType: string; filename: string },
    options?: { timeoutMs?: number },
  ): Promise<{ result: StreamedFile; reply: Promise<Download> }>;
  /** An upload moved into the blob store: the fields that name it to the consumer. */
  upload(file: UploadedFile): Promise<UploadFields>;
  /** The client's fields plus the upload's; a client cannot name a blob itself. */
  withUpload<F extends object>(fields: F, upload: UploadFields): WithUpload<F>;
  withUpload<F extends object>(fields: F, upload: UploadFields | undefined): Partial<WithUpload<F>>;
}

/** A download answered while it is written. */
export type StreamedFile = { body: Readable; contentType: string; filename: string };

export type UploadFields = {
  blob: string;
  filename: string;
};

/** Fields only the gateway sets: a client-given `blob` would let it read any stored blob. */
const UPLOAD_FIELDS = ['blob', 'filename'] as const;

type WithUpload<F> = Omit<F, keyof UploadFields> & UploadFields;

function withUpload<F extends object>(fields: F, upload: UploadFields): WithUpload<F>;
function withUpload<F extends object>(fields: F, upload: UploadFields | undefined): Partial<WithUpload<F>>;
function withUpload(fields: object, upload: UploadFields | undefined): Record<string, unknown> {
  const own: Record<string, unknown> = { ...fields };
  for (const name of UPLOAD_FIELDS) delete own[name];
  return { ...own, ...upload };
}

/**
 * The caller's credential (hashes only) for the operation, which reads URLs of this catalogue
 * with it. A session cookie counts on GET only, as for the Action API: a cross-site form could
 * send it with a POST. An Authorization header that is no labld token (the extractor's openBIS
 * token, a header the original services forwarded upstream) is not refused here: the request
 * then reads this catalogue as anonymous.
 */
function callerCredential(input: Input): { credential?: Credential } {
  try {
    const credential = credentialOf(
      {
        authorization: input.header('authorization'),
        'x-ckan-api-key': input.header('x-ckan-api-key'),
        cookie: input.method === 'GET' ? input.header('cookie') : undefined,
      },
      baseUrl().startsWith('https:'),
    );
    return { credential };
  } catch {
    return {};
  }
}

/**
 * Sends `operation` of `service` over its request topic and resolves to the reply value (a
 * refusal rejects with the consumer's DomainError). `credential`: whose rights the operation
 * reads this catalogue's URLs with (a page passes its CSRF-checked visitor's).
 */
export async function sendRequest<S extends ServiceName, O extends OperationName<S>>(
  runtime: Runtime,
  service: S,
  operation: O,
  fields: OperationInputs[S][O],
  options: { correlationId: string; credential?: Credential; timeoutMs?: number },
): Promise<unknown> {
  // Checked before the claim check, which would hide a large input from the bus's own check.
  const request = { operation, input: declaredFields(service, operation, fields) };
  checkRequest(service, request);
  const credential = options.credential && credentialHeader(options.credential);
  const reply = await runtime.bus.request(
    runtime.catalog.topicReadBy(requestGroupOf(service)).name,
    { operation, input: await checkIn(runtime.blobs, request.input) },
    {
      timeoutMs: options.timeoutMs ?? intSetting('LABLD_REQUEST_TIMEOUT_MS'),
      headers: {
        'x-correlation-id': options.correlationId,
        ...(credential === undefined ? {} : { [CREDENTIAL_HEADER]: credential }),
      },
    },
  );
  return checkOut(runtime.blobs, reply);
}

export function forwarder<S extends ServiceName>(runtime: Runtime, service: S): Forwarder<S> {
  const fieldsOf = (input: Input) => {
    const body = input.body && typeof input.body === 'object' ? (input.body as Record<string, unknown>) : {};
    return { ...input.params, ...input.query, ...body };
  };
  const send: Forwarder<S>['send'] = (operation, fields, input, options) =>
    sendRequest(runtime, service, operation, fields, {
      correlationId: input.correlationId,
      ...callerCredential(input),
      ...(options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
  const asDownload = (value: unknown): Result => {
    if (!isDownload(value)) throw new Error('the consumer did not reply with a download');
    return {
      body: { path: runtime.blobs.path(value.blob) },
      contentType: value.contentType,
      filename: value.filename,
    };
  };
  const streamed: Forwarder<S>['streamed'] = async (operation, fields, input, file, options) => {
    const growing = newGrowingId();
    const reply = send(operation, { ...(fields as object), growing } as never, input, options).then(
      (value) => {
        if (!isDownload(value)) throw new Error('the consumer did not reply with a download');
        return value;
      },
    );
    const body = await followGrowing(runtime.blobs, growing, reply, input.signal);
    return { result: { body, ...file }, reply };
  };
  return {
    send,
    asDownload,
    streamed,
    upload: async (file) => ({
      blob: await runtime.blobs.putFile(file.keep(), file.sha256),
      filename: file.filename,
    }),
    withUpload,
    // The route's schema (built from the same contract) has checked these fields already.
    json: (operation) => async (input) => ({ json: await send(operation, fieldsOf(input) as never, input) }),
    download: (operation) => async (input) =>
      asDownload(await send(operation, fieldsOf(input) as never, input)),
  };
}

export { type Download } from '../lib/blobs/download.ts';
