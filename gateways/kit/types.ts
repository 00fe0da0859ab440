// The vocabulary of the gateway kit: a route is data (method, path, schemas, responses) plus a
// handler; the kit validates, parses, answers errors and documents from that one definition.
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { Logger } from '../../lib/process/log.ts';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). Self-contained: no external `$ref`. */
export type JSONSchema = Record<string, unknown>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** A file received in a multipart upload, already on disk at a path the kit chose. */
export interface UploadedFile {
  /** Absolute path of the bytes, in a fresh per-request directory under `<LABLD_DATA>/uploads/`. */
  path: string;
  /** The client's file name reduced to its last segment, for display only; never a path. */
  filename: string;
  size: number;
  /** The media type the client declared for the part (unchecked). */
  mimetype: string;
  /**
   * Hex SHA-256 of the bytes, taken as they were written to `path`: the blob store's key, so that
   * storing the upload does not read the file again (BlobStore.putFile).
   */
  sha256: string;
  /**
   * Take ownership: the kit will not delete the file when the response is done. Without it, or
   * a rename of the file elsewhere, the upload is removed after the response.
   */
  keep(): string;
}

/** What a handler receives; every part is already parsed and validated against the route's schemas. */
export interface RouteInput<Query, Body, Params = Record<string, string>> {
  /** The query string, coerced and with defaults applied (the raw strings when the route has no schema). */
  query: Query;
  /** Path parameters (`/object/{perm_id}` → `params.perm_id`), decoded; coerced by a params schema. */
  params: Params;
  /** The JSON body; for an upload route the other form fields. `undefined` if absent and optional. */
  body: Body;
  /** The upload of a multipart route; set there unless its JSON alternative came, `undefined` elsewhere. */
  file: UploadedFile | undefined;
  /** Correlation id of this request: pass it on the bus (`x-correlation-id`) and in log lines. */
  correlationId: string;
  /** The request's method (GET, POST, …). */
  method: string;
  /** A request header by (case-insensitive) name; empty or absent: undefined. */
  header(name: string): string | undefined;
  /** Logger bound to this request's correlation id and service. */
  log: Logger;
  /** Aborted when the client goes away, so that waiting for a reply can stop early. */
  signal: AbortSignal;
}

/** Bytes for a non-JSON answer: in memory, a stream, or a file on disk (opened before answering). */
export type BodySource = string | Uint8Array | Readable | { path: string };

interface ResultBase {
  /** Default 200 (`{ redirect }`: 303). */
  status?: number;
  headers?: Record<string, string>;
}

/**
 * A handler's answer:
 * - `{ json }` serialised as `application/json` (any JSON value, also a bare string);
 * - `{ body, contentType, filename? }` raw bytes; with `filename` a download (`Content-Disposition: attachment`);
 * - `{ redirect }` a redirect to a same-site path the handler chose (never a client-supplied URL);
 * - `{ status }` an empty answer (e.g. 202, 204).
 */
export type Result =
  | (ResultBase & { json: unknown })
  | (ResultBase & { body: BodySource; contentType: string; filename?: string })
  | (ResultBase & { redirect: string })
  | (ResultBase & { status: number });

export type Handler<Query, Body, Params = Record<string, string>> = (
  input: RouteInput<Query, Body, Params>,
  ctx: Context,
) => Promise<Result> | Result;

export interface ResponseSpec {
  description: string;
  /** Media type → schema of the body (`null`/omitted for non-JSON content such as Turtle or a ZIP). */
  content?: Record<string, JSONSchema | null | undefined>;
}

export interface JsonBodySpec {
  json: JSONSchema;
  /** Default true; false when the parameters may come in the query instead (converter). */
  required?: boolean;
  /** Media types accepted besides `application/json` and `application/*+json`; documentation only. */
  mediaType?: string;
}

export interface MultipartBodySpec {
  multipart: {
    /** Name of the form field that carries the file (e.g. `file`). */
    fileField: string;
    /** Schema of the other form fields (strings, coerced like query parameters). */
    fields?: JSONSchema;
    /**
     * A JSON body accepted instead of the upload when the request is not multipart (an
     * original service's JSON form of the same operation); the handler then gets no file.
     */
    json?: JSONSchema;
    /**
     * An `application/x-www-form-urlencoded` body accepted too (CKAN's API takes one), read as the
     * multipart fields are; a field given twice is a list.
     */
    form?: boolean;
  };
}

interface RouteCommon {
  method: HttpMethod;
  /** Path below the service's base, OpenAPI style: `/api/annotate`, `/object/{perm_id}`, `/distribution/{perm_id}/{path*}` (the last may span segments). */
  path: string;
  summary: string;
  description?: string;
  tags?: string[];
  operationId?: string;
  /** Schema of the query string: an object schema whose properties are the parameters. */
  query?: JSONSchema;
  /** Schema of the path parameters (default: every one a string). */
  params?: JSONSchema;
  responses: Record<number | string, ResponseSpec>;
  /**
   * Answers errors of this route (reading its body included) in the route's own shape, e.g.
   * CKAN's envelope for the Action API; undefined leaves an error to the kit's `{"detail"}`.
   * `headers` are set on the error answer (e.g. a 401's `WWW-Authenticate`).
   */
  errors?: (
    error: unknown,
    ctx: Context,
  ) => { status: number; json: unknown; headers?: Record<string, string | string[]> } | undefined;
}

type Params = Record<string, string>;

export interface JsonRouteDefinition<Query, Body, P = Params> extends RouteCommon {
  body?: JsonBodySpec;
  handler: Handler<Query, Body, P>;
}

export interface UploadRouteDefinition<Query, Fields, P = Params> extends RouteCommon {
  body: MultipartBodySpec;
  handler: (
    input: RouteInput<Query, Fields, P> & { file: UploadedFile },
    ctx: Context,
  ) => Promise<Result> | Result;
}

type DefaultQuery = Record<string, unknown>;

/** A route as the kit stores it (the handler's types erased). */
export type Route = JsonRouteDefinition<DefaultQuery, unknown> | UploadRouteDefinition<DefaultQuery, unknown>;

/**
 * Declare a route. The type parameters describe what the handler receives after validation
 * (query, body or form fields, path parameters when a params schema coerces them); they are
 * not derived from the schemas, so keep the two in step.
 */
export function route<Query = DefaultQuery, Fields = Record<string, unknown>, P = Params>(
  definition: UploadRouteDefinition<Query, Fields, P>,
): Route;
export function route<Query = DefaultQuery, Body = unknown, P = Params>(
  definition: JsonRouteDefinition<Query, Body, P>,
): Route;
export function route(definition: unknown): Route {
  return definition as Route;
}
