// CKAN's Action API at `/api/3/action/{name}` (and `/api/action/{name}`, where ckanapi sends
// it): GET with query parameters for the actions that only read, POST with a JSON body — or
// multipart with the file in `upload` for resource_create/update/patch — for all. The gateway
// reads the credential (as hashes), stores an upload in the blob store and sends the call over
// the catalogue request topic; the answer is CKAN's envelope `{"help", "success", "result"}`,
// and every error CKAN's `{"help", "success": false, "error": {"__type", …}}` with CKAN's status.
import type { Context } from 'koa';
import { checkIn, checkOut } from '../../lib/blobs/claim-check.ts';
import { credentialOf, type Credential } from '../../lib/catalogue/auth/actor.ts';
import {
  CATALOGUE_ACTIONS,
  CATALOGUE_GROUP,
  isActionName,
  type ActionName,
  type StoredUpload,
  type WireIdempotency,
} from '../../lib/contracts/catalogue.ts';
import { checkCatalogueRequest } from '../../lib/contracts/catalogue-check.ts';
import { intSetting } from '../../lib/process/config.ts';
import { DomainError, invalid, unauthorized } from '../../lib/process/errors.ts';
import type { Runtime } from '../../app/runtime.ts';
import { baseUrl } from '../../lib/services.ts';
import { ckanError } from '../kit/ckan-errors.ts';
import { route, tokenAccepted, type Route, type RouteInput } from '../kit/index.ts';
import { IDEMPOTENCY_HEADER, idempotencyOf } from './idempotency.ts';

export interface CallOptions {
  /** A file the gateway stored (resource_create/update/patch). */
  upload?: StoredUpload;
  /** The client's Idempotency-Key, scoped (idempotency.ts). */
  idempotency?: WireIdempotency | undefined;
  correlationId?: string;
  /** Default LABLD_REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
}

/**
 * Runs an action over the bus and resolves to its CKAN `result`; a refusal rejects with the
 * DomainError the action threw (its kind and field), a missing reply with a TimeoutError. The
 * catalogue's pages call this with the credential of their request.
 */
export async function callAction(
  runtime: Runtime,
  name: ActionName,
  params: Record<string, unknown>,
  credential: Credential,
  options: CallOptions = {},
): Promise<unknown> {
  const input = {
    credential,
    params,
    ...(options.upload ? { upload: options.upload } : {}),
    ...(options.idempotency ? { idempotency: options.idempotency } : {}),
  };
  // Checked before the claim check, which would hide a large input from the bus's own check.
  checkCatalogueRequest({ operation: name, input });
  const reply = await runtime.bus.request(
    runtime.catalog.topicReadBy(CATALOGUE_GROUP).name,
    { operation: name, input: await checkIn(runtime.blobs, input) },
    {
      timeoutMs: options.timeoutMs ?? intSetting('LABLD_REQUEST_TIMEOUT_MS'),
      headers: options.correlationId ? { 'x-correlation-id': options.correlationId } : {},
    },
  );
  return checkOut(runtime.blobs, reply);
}

/** CKAN's answers that come before an action runs: 400 "Bad request - …". */
class BadRequest extends Error {}

const ACCEPTS_UPLOAD = new Set<string>(['resource_create', 'resource_update', 'resource_patch']);

function helpUrl(name: unknown): string {
  return `${baseUrl()}/api/3/action/help_show?name=${encodeURIComponent(String(name ?? ''))}`;
}

/**
 * The CKAN envelope for an error. CKAN answers an unknown action or an unreadable request with
 * 400 and a bare JSON string; labld keeps the status and the words but wraps them in the
 * envelope, so that a client reading `success` and `error` can read this one too.
 */
function ckanAnswer(error: unknown, ctx: Context): { status: number; json: unknown } | undefined {
  const help = helpUrl((ctx.params as Record<string, string> | undefined)?.name);
  if (error instanceof BadRequest) {
    return {
      status: 400,
      json: {
        help,
        success: false,
        error: { __type: 'Bad Request', message: `Bad request - ${error.message}` },
      },
    };
  }
  if (!(error instanceof DomainError)) return undefined;
  const { status, body } = ckanError(error);
  return { status, json: { help, ...body } };
}

function actionName(ctx: Context, method: 'GET' | 'POST'): ActionName {
  const name = (ctx.params as Record<string, string>).name;
  if (!isActionName(name)) throw new BadRequest(`Action name not known: ${name}`);
  if (method === 'GET' && !CATALOGUE_ACTIONS[name]) {
    throw new BadRequest('JSON Error: Invalid request. Please use POST method for your request');
  }
  return name;
}

/**
 * The request's credential. A POST counts a session cookie not at all: a cross-site form could
 * send it (the pages call actions with their own CSRF-checked credential); scripts send tokens.
 */
export function credential(ctx: Context, method: 'GET' | 'POST'): Credential {
  const header = (name: string) => ctx.get(name) || undefined;
  return credentialOf(
    {
      authorization: header('authorization'),
      'x-ckan-api-key': header('x-ckan-api-key'),
      cookie: method === 'GET' ? header('cookie') : undefined,
    },
    baseUrl().startsWith('https:'),
  );
}

/** CKAN's GET parameters: a repeated one is a list. */
function queryParams(query: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([key]) => key !== 'callback'));
}

/**
 * CKAN reads a form whose one field has no value (or `1`) as that field's JSON: what
 * `curl -d '{"id": …}'` sends without a Content-Type.
 */
function jsonInForm(ctx: Context, body: unknown): unknown {
  if (ctx.request.type !== 'application/x-www-form-urlencoded') return body;
  const entries = Object.entries(body as Record<string, unknown>);
  const [key, value] = entries[0] ?? [];
  if (entries.length !== 1 || (value !== '' && value !== '1') || !key?.trimStart().startsWith('{'))
    return body;
  try {
    return JSON.parse(key) as unknown;
  } catch {
    throw new BadRequest(
      `Bad request data: Error decoding JSON data. Error: ${JSON.stringify(key.slice(0, 100))}`,
    );
  }
}

function bodyParams(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequest(
      `Bad request data: Request data JSON decoded to ${JSON.stringify(body)?.slice(0, 100)} but it needs to be a dictionary.`,
    );
  }
  return body as Record<string, unknown>;
}

const RESPONSES = {
  200: { description: 'CKAN envelope: {"help", "success": true, "result"}' },
  400: { description: 'unknown action, or a write action called with GET' },
  403: { description: 'Authorization Error' },
  404: { description: 'Not Found Error' },
  409: {
    description:
      'Validation Error: {"<field>": ["message"]}; also an `Idempotency-Key` (resource_create) reused for another request',
  },
};

const PARAMS = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1, maxLength: 100 } },
  required: ['name'],
};

type Input = RouteInput<Record<string, unknown>, unknown, { name: string }>;

/** The Action API's routes, on the bus of `runtime`. */
export function actionRoutes(runtime: Runtime): Route[] {
  const answer = async (
    ctx: Context,
    input: Input,
    name: ActionName,
    params: Record<string, unknown>,
    upload?: StoredUpload,
  ) => {
    const caller = credential(ctx, ctx.method === 'GET' ? 'GET' : 'POST');
    const correlationId = input.correlationId;
    const idempotency = idempotencyOf({
      key: ctx.get(IDEMPOTENCY_HEADER) || undefined,
      action: name,
      credential: caller,
      params,
      upload,
    });
    const result = await callAction(runtime, name, params, caller, {
      correlationId,
      idempotency,
      ...(upload ? { upload } : {}),
    });
    // The consumer resolved the token to a user (an unknown one is refused): it is counted apart from now on.
    if (caller.kind === 'token') tokenAccepted(ctx);
    return { json: { help: helpUrl(name), success: true, result } };
  };
  // CKAN's API roots answer the API's version (`/api` is version 3 since CKAN 2.9).
  const versions = ['/api', '/api/3'].map((path) =>
    route({
      method: 'GET',
      path,
      summary: 'The version of the Action API: {"version": 3}, as CKAN answers it',
      responses: { 200: { description: '{"version": 3}' } },
      handler: async () => ({ json: { version: 3 } }),
    }),
  );
  return [
    ...versions,
    ...['/api/3/action/{name}', '/api/action/{name}'].flatMap((path) => [
      route<Record<string, unknown>, unknown, { name: string }>({
        method: 'GET',
        path,
        summary:
          'A CKAN action that only reads, with query parameters (package_show, package_search, datastore_search, …)',
        params: PARAMS,
        responses: RESPONSES,
        errors: ckanAnswer,
        handler: (input, ctx) => answer(ctx, input, actionName(ctx, 'GET'), queryParams(input.query)),
      }),
      route<Record<string, unknown>, Record<string, unknown>, { name: string }>({
        method: 'POST',
        path,
        summary:
          'A CKAN action with a JSON body, or multipart with the file in `upload` (resource_create/update/patch)',
        params: PARAMS,
        responses: RESPONSES,
        errors: ckanAnswer,
        body: { multipart: { fileField: 'upload', fields: { type: 'object' }, json: {}, form: true } },
        handler: async (input, ctx) => {
          const name = actionName(ctx, 'POST');
          const params = bodyParams(jsonInForm(ctx, input.body));
          const file = input.file;
          if (!file) return answer(ctx, input, name, params);
          if (!ACCEPTS_UPLOAD.has(name)) throw invalid(`${name} takes no upload`, 'upload');
          // Every action that takes a file needs an editor: an anonymous file is not even stored.
          if (credential(ctx, 'POST').kind === 'anonymous') {
            throw unauthorized(
              `${name}: log in or send an API token in the Authorization header`,
              'Authorization',
            );
          }
          const blob = await runtime.blobs.putFile(file.keep(), file.sha256);
          return answer(ctx, input, name, params, {
            blob,
            filename: file.filename,
            mimetype: file.mimetype,
            size: file.size,
          });
        },
      }),
    ]),
  ];
}
