// createGateway: one service's routes, compiled once (schemas checked at startup), mountable
// under any prefix: its base path in the composed server, and also `/` in single-service mode.
import { Router, type RouterContext } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { invalid } from '../../lib/process/errors.ts';
import { readFormLists, readJson } from './body.ts';
import { serveDocsAsset, serveDocsPage } from './docs.ts';
import { answerError } from './errors.ts';
import type { KitState } from './observe.ts';
import { openapiDocument, pathParamNames, type ApiInfo } from './openapi.ts';
import { respond } from './respond.ts';
import { compile, type Validator } from './schema.ts';
import type { Handler, Route, RouteInput, UploadedFile } from './types.ts';
import { receiveUpload } from './upload.ts';

export interface GatewayOptions extends ApiInfo {
  /** Service name, e.g. `annotator`: label of logs and metrics, default base path. */
  service: string;
  /** Where the service lives in the composed server: default `/<service>`; `/` for the catalogue. */
  basePath?: string;
  routes: readonly Route[];
}

/** What createApp passes when it mounts a gateway. */
export interface MountOptions {
  /** '' for the root, else `/name` without a trailing slash. */
  prefix: string;
  /** Bytes, and `bodyIdleMs`: ms without a body byte before a 408 (0: never). */
  limits: { body: number; upload: number; bodyIdleMs?: number };
  /** Parent of the per-request upload directories. */
  uploadRoot: string;
}

export interface Gateway {
  readonly service: string;
  /** Normalised: '' for the root, else `/name`. */
  readonly basePath: string;
  readonly info: ApiInfo;
  readonly routes: readonly Route[];
  /** The OpenAPI document as served when mounted at `prefix` (default: the base path). */
  openapi(prefix?: string): Record<string, unknown>;
  /** Koa middleware for the routes below `prefix`; answers 404/405 for other paths there. */
  middleware(options: MountOptions): Middleware;
}

interface Compiled {
  route: Route;
  query?: Validator;
  params?: Validator;
  body?: Validator;
  /** A multipart route's JSON alternative. */
  jsonBody?: Validator;
}

// Segments: text, a parameter, or a parameter with an extension (`{id}.ttl`); a last `{rest*}`.
const PATH = /^(\/([A-Za-z0-9._~-]+|\{\w+\}(\.[A-Za-z0-9]+)?))*(\/\{\w+\*\})?\/?$/;

export function normaliseBasePath(basePath: string): string {
  if (basePath === '' || basePath === '/') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath))
    throw new Error(`invalid base path ${JSON.stringify(basePath)}`);
  return basePath;
}

/** OpenAPI template → @koa/router (path-to-regexp 8): `{id}` → `:id`, `{rest*}` → `*rest`. */
function routerPath(path: string): string {
  return path.replace(/\{(\w+)\*\}/g, '*$1').replace(/\{(\w+)\}/g, ':$1');
}

function compileRoute(route: Route): Compiled {
  const where = `${route.method} ${route.path}`;
  if (!PATH.test(route.path)) throw new Error(`${where}: the path is not a plain template`);
  const names = pathParamNames(route.path);
  if (new Set(names).size !== names.length) throw new Error(`${where}: the path repeats a parameter`);
  const schema = (part: string, run: () => Validator): Validator => {
    try {
      return run();
    } catch (error) {
      throw new Error(`${where}: ${part} schema: ${(error as Error).message}`, { cause: error });
    }
  };
  const compiled: Compiled = { route };
  const { query, params, body } = route;
  if (query) compiled.query = schema('query', () => compile(query, 'query', { text: true }));
  if (params) compiled.params = schema('params', () => compile(params, 'path', { text: true }));
  if (body && 'multipart' in body) {
    const { fields, json } = body.multipart;
    if (fields) compiled.body = schema('multipart fields', () => compile(fields, 'body', { text: true }));
    if (json) compiled.jsonBody = schema('body', () => compile(json, 'body', { text: false }));
  } else if (body) {
    compiled.body = schema('body', () => compile(body.json, 'body', { text: false }));
  }
  return compiled;
}

export function createGateway(options: GatewayOptions): Gateway {
  if (!/^[a-z][a-z0-9-]*$/.test(options.service)) throw new Error(`invalid service name ${options.service}`);
  const basePath = normaliseBasePath(options.basePath ?? `/${options.service}`);
  const info: ApiInfo = { title: options.title, version: options.version, description: options.description };
  const seen = new Set<string>();
  for (const route of options.routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`${options.service}: route ${key} is defined twice`);
    seen.add(key);
  }
  const compiled = options.routes.map(compileRoute);
  const documents = new Map<string, string>();
  const openapi = (prefix: string = basePath): Record<string, unknown> =>
    openapiDocument(info, options.routes, prefix === '' ? '/' : prefix);

  return {
    service: options.service,
    basePath,
    info,
    routes: options.routes,
    openapi,
    middleware(mount) {
      const router = new Router(mount.prefix ? { prefix: mount.prefix } : {});
      // The kit's own routes first, so that a catch-all route of a service cannot hide them.
      router.get('/api/openapi.json', (ctx: Context) => {
        (ctx.state as KitState).route = '/api/openapi.json';
        let json = documents.get(mount.prefix);
        if (json === undefined) documents.set(mount.prefix, (json = JSON.stringify(openapi(mount.prefix))));
        ctx.type = 'application/json';
        ctx.body = json;
      });
      router.get('/api/docs', (ctx: Context) => {
        (ctx.state as KitState).route = '/api/docs';
        serveDocsPage(ctx, mount.prefix, options.title);
      });
      router.get('/api/docs/:asset', async (ctx: Context) => {
        (ctx.state as KitState).route = '/api/docs/{asset}';
        if (!(await serveDocsAsset(ctx, mount.prefix, String(ctx.params.asset)))) {
          answerError(ctx, { status: 404, detail: 'Not Found' });
        }
      });
      for (const entry of compiled) {
        router.register(
          routerPath(entry.route.path),
          [entry.route.method],
          [(ctx: Context) => handle(ctx, entry, mount)],
        );
      }
      const routes = router.routes();
      // A gateway owns every path below its prefix: what it does not know ends here.
      return async (ctx) => {
        const state = ctx.state as KitState;
        state.service = options.service;
        state.log = state.log.child({ service: options.service });
        await routes(ctx as unknown as RouterContext, async () => notMatched(ctx));
      };
    },
  };
}

/** Nothing answered: 405 with Allow when the path exists for other methods, else 404 (FastAPI's details). */
function notMatched(ctx: Context): void {
  const allowed = new Set(
    ((ctx as unknown as RouterContext).matched ?? []).flatMap((layer) => layer.methods),
  );
  if (allowed.size === 0) {
    answerError(ctx, { status: 404, detail: 'Not Found' });
    return;
  }
  answerError(ctx, { status: 405, detail: 'Method Not Allowed' });
  ctx.set('Allow', [...allowed].join(', '));
}

async function handle(ctx: Context, entry: Compiled, mount: MountOptions): Promise<void> {
  const { errors } = entry.route;
  if (!errors) return run(ctx, entry, mount);
  try {
    await run(ctx, entry, mount);
  } catch (error) {
    const answer = ctx.headerSent ? undefined : errors(error, ctx);
    if (!answer) throw error;
    (ctx.state as KitState).log.debug({ status: answer.status, err: String(error) }, 'request refused');
    answerError(ctx, { status: answer.status, detail: '' }, answer.json);
    if (answer.headers) ctx.set(answer.headers);
  }
}

async function run(ctx: Context, entry: Compiled, mount: MountOptions): Promise<void> {
  const { route } = entry;
  const state = ctx.state as KitState;
  state.route = route.path;

  const query = entry.query ? entry.query({ ...ctx.query }) : { ...ctx.query };
  const params = { ...(ctx.params as Record<string, string>) };
  if (entry.params) entry.params(params);

  let body: unknown;
  let file: UploadedFile | undefined;
  // By the declared type, body or not: an empty multipart request is an upload without its file.
  const multipart = ctx.request.type === 'multipart/form-data';
  const form = ctx.request.type === 'application/x-www-form-urlencoded';
  if (route.body && 'multipart' in route.body && route.body.multipart.form && form) {
    const fields = await readFormLists(ctx, mount.limits.body, mount.limits.bodyIdleMs);
    body = entry.body ? entry.body(fields) : fields;
  } else if (route.body && 'multipart' in route.body && entry.jsonBody && !multipart) {
    const raw = await readJson(ctx, mount.limits.body, mount.limits.bodyIdleMs);
    if (raw !== undefined) body = entry.jsonBody(raw); // none: the handler may read the query
  } else if (route.body && 'multipart' in route.body) {
    const upload = await receiveUpload(ctx, route.body.multipart.fileField, mount.uploadRoot, {
      file: mount.limits.upload,
      fields: mount.limits.body,
      idleMs: mount.limits.bodyIdleMs,
    });
    body = entry.body ? entry.body(upload.fields) : upload.fields;
    file = upload.file;
  } else if (route.body) {
    const raw = await readJson(ctx, mount.limits.body, mount.limits.bodyIdleMs);
    if (raw !== undefined) body = entry.body?.(raw);
    else if (route.body.required !== false) throw invalid('body: is required', 'body');
  }

  const aborted = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) aborted.abort(new Error('client closed the connection'));
  });
  const input: RouteInput<Record<string, unknown>, unknown> = {
    query: query as Record<string, unknown>,
    params,
    body,
    file,
    correlationId: state.correlationId,
    method: ctx.method,
    header: (name) => ctx.get(name) || undefined,
    log: state.log.child({ route: route.path }),
    signal: aborted.signal,
  };
  const result = await (route.handler as Handler<Record<string, unknown>, unknown>)(input, ctx);
  await respond(ctx, result);
}
