// The catalogue at `/`. Without a CatalogueSource (this is so until the stores are wired) it
// serves a placeholder page linking the services; with one, the catalogue's pages: dataset list
// and search, dataset, upload, resource with its table preview, group, login and API tokens.
import type { Context } from 'koa';
import { DomainError, notFound } from '../lib/process/errors.ts';
import { SERVICES, services } from '../lib/services.ts';
import { ASSET_PREFIX, LONG_CACHE, assetByHashedName } from './catalogue/assets.ts';
import { renderLogin, renderTokens } from './catalogue/pages/account.ts';
import {
  renderDataset,
  renderDatasetList,
  renderGroup,
  renderUpload,
  resourcePath,
} from './catalogue/pages/datasets.ts';
import { renderError } from './catalogue/pages/layout.ts';
import { renderResource } from './catalogue/pages/resource.ts';
import { parsePage, parseTableQuery, type CatalogueSource } from './catalogue/source.ts';
import { actionRoutes } from './catalogue/actions.ts';
import type { Runtime } from '../lib/process/runtime.ts';
import type { PageContext } from './catalogue/views.ts';
import {
  createGateway,
  escapeHtml,
  route,
  toErrorAnswer,
  type Gateway,
  type Result,
  type Route,
} from './kit/index.ts';

export type { CatalogueSource } from './catalogue/source.ts';

function placeholder(): string {
  const rows = SERVICES.map((name) => {
    const s = services[name];
    return `<li><a href="${s.basePath}/api/docs">${escapeHtml(s.title)}</a> ${escapeHtml(s.version)} — ${escapeHtml(s.description)}</li>`;
  }).join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>labld</title></head>
  <body>
    <h1>labld</h1>
    <p>Tabular lab data to linked data. The catalogue (datasets, uploads, SPARQL) is coming; the services are here:</p>
    <ul>
      ${rows}
    </ul>
  </body>
</html>
`;
}

/** Pages load only our own files; no inline script or style, no framing, forms post here only. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const HTML = { 200: { description: 'HTML page', content: { 'text/html': null } } };
const NAME = { type: 'string', minLength: 1, maxLength: 200 };

function page(body: string): Result {
  return {
    body,
    contentType: 'text/html; charset=utf-8',
    headers: {
      'Content-Security-Policy': PAGE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    },
  };
}

function cookie(ctx: Context): string | undefined {
  return ctx.get('cookie') || undefined;
}

type Query = Record<string, string | string[] | undefined>;
type Named = { name: string };
type NamedId = { name: string; id: string };

function paramsSchema(names: string[]): Record<string, unknown> {
  return { type: 'object', properties: Object.fromEntries(names.map((n) => [n, NAME])), required: names };
}

type Render<P> = (context: PageContext, input: { params: P; query: Query }) => Promise<string> | string;

/** A GET page: the viewer's context and the request → HTML. Path parameters are names (1–200 characters). */
function pageRoute<P = Record<string, string>>(
  source: CatalogueSource,
  path: string,
  summary: string,
  render: Render<P>,
): Route {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return route<Query, unknown, P>({
    method: 'GET',
    path,
    summary,
    ...(names.length > 0 ? { params: paramsSchema(names) } : {}),
    responses: HTML,
    handler: async ({ params, query }, ctx) => {
      const context = await source.context(cookie(ctx));
      try {
        return page(await render(context, { params, query }));
      } catch (error) {
        // A person in a browser gets the page's frame with the reason; API clients the usual {"detail"}.
        if (!(error instanceof DomainError) || ctx.accepts('json', 'html') !== 'html') throw error;
        // The message without the field prefix of `detail`: the page says what went wrong in words.
        const { status } = toErrorAnswer(error);
        return { ...page(renderError(context, { status, detail: error.message })), status };
      }
    },
  });
}

function pageRoutes(source: CatalogueSource): Route[] {
  const list: Render<unknown> = async (context, { query }) => {
    const q = typeof query.q === 'string' ? query.q.trim() : '';
    return renderDatasetList(context, await source.datasets(q, parsePage(query)));
  };
  return [
    pageRoute(source, '/', 'Dataset list', list),
    pageRoute(source, '/dataset', 'Dataset list and search (`q`, `page`)', list),
    pageRoute<Named>(
      source,
      '/dataset/{name}',
      'A dataset: its resources, who made each, the automation steps',
      async (context, { params }) => renderDataset(context, await source.dataset(params.name)),
    ),
    pageRoute<Named>(
      source,
      '/dataset/{name}/upload',
      'The upload form of a dataset',
      async (context, { params }) => renderUpload(context, await source.upload(params.name)),
    ),
    route<Query, { description?: string }, Named>({
      method: 'POST',
      path: '/dataset/{name}/upload',
      params: paramsSchema(['name']),
      summary:
        'Add a resource (multipart field `file`); a form gets a redirect, `Accept: application/json` gets `{location}`',
      body: {
        multipart: {
          fileField: 'file',
          fields: {
            type: 'object',
            properties: { description: { type: 'string', maxLength: 2000 }, _csrf: { type: 'string' } },
          },
        },
      },
      responses: { 201: { description: 'Created' }, 303: { description: 'To the new resource' } },
      handler: async ({ params: p, file, body }, ctx) => {
        const id = await source.addResource(p.name, { ...file, description: body.description });
        const location = resourcePath(p.name, id);
        if (ctx.accepts('html', 'json') === 'json') return { status: 201, json: { location } };
        return { redirect: location };
      },
    }),
    pageRoute<NamedId>(
      source,
      '/dataset/{name}/resource/{id}',
      'A resource and its table preview (`sort`, `order`, `f.<column>`, `page`)',
      async (context, { params, query }) =>
        renderResource(context, await source.resource(params.name, params.id, parseTableQuery(query))),
    ),
    route<Query, unknown, NamedId>({
      method: 'GET',
      path: '/dataset/{name}/resource/{id}/download',
      params: paramsSchema(['name', 'id']),
      summary: 'The bytes of a resource',
      responses: { 200: { description: 'The file' } },
      handler: async ({ params: p }) => {
        const file = await source.download(p.name, p.id);
        return { body: { path: file.path }, contentType: file.contentType, filename: file.filename };
      },
    }),
    pageRoute<Named>(
      source,
      '/group/{name}',
      'A group of datasets (e.g. `mappings`)',
      async (context, { params }) => renderGroup(context, await source.group(params.name)),
    ),
    pageRoute(source, '/user/login', 'The login form', (context, { query }) => {
      // Only a same-site path: never an open redirect after signing in.
      const next = typeof query.next === 'string' && /^\/(?![/\\])/.test(query.next) ? query.next : undefined;
      return renderLogin(context, { next });
    }),
    pageRoute(source, '/user/tokens', 'Your API tokens', async (context) =>
      renderTokens(context, await source.tokens()),
    ),
  ];
}

const assetRoute = route({
  method: 'GET',
  path: '/assets/{file}',
  summary: 'The catalogue’s stylesheet and scripts, by a URL carrying their content hash',
  responses: { 200: { description: 'CSS or JavaScript' } },
  handler: ({ params }) => {
    const asset = assetByHashedName(params.file ?? '');
    if (!asset) throw notFound(`${ASSET_PREFIX}${params.file}: no such asset`, 'file');
    return {
      body: asset.bytes,
      contentType: asset.contentType,
      headers: { 'Cache-Control': LONG_CACHE, 'X-Content-Type-Options': 'nosniff' },
    };
  },
});

export interface CatalogueOptions {
  /** Where the pages' content comes from; without one, `/` is the placeholder page. */
  source?: CatalogueSource;
  /** The process's bus and stores: with it, the CKAN Action API (`/api/3/action/{name}`) is served. */
  runtime?: Runtime;
}

export function catalogueGateway(options: CatalogueOptions = {}): Gateway {
  const routes = options.source
    ? [...pageRoutes(options.source), assetRoute]
    : [
        route({
          method: 'GET',
          path: '/',
          summary: 'Catalogue home page',
          responses: HTML,
          handler: () => ({ body: placeholder(), contentType: 'text/html; charset=utf-8' }),
        }),
        assetRoute,
      ];
  if (options.runtime) routes.unshift(...actionRoutes(options.runtime));
  return createGateway({
    service: 'catalogue',
    title: 'labld catalogue',
    version: '0.1.0',
    basePath: '/',
    routes,
  });
}
