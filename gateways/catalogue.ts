// The catalogue at `/`. Without a CatalogueSource (this is so until the stores are wired) it
// serves a placeholder page linking the services; with one, the catalogue's pages: dataset list
// and search, dataset, upload, resource with its table preview, group, login and API tokens.
// With Accounts (what `labld start` gives it) it authenticates on the real catalogue store: login,
// logout, the viewer and CSRF token of every page from the session, CSRF checks on form posts.
import type { Context } from 'koa';
import { notFound } from '../lib/process/errors.ts';
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
import {
  accountRoutes,
  checkForm,
  safeNext,
  visit,
  type Accounts,
  type Visit,
} from './catalogue/accounts.ts';
import { errorPage, page } from './catalogue/respond.ts';
import { renderResource } from './catalogue/pages/resource.ts';
import { parsePage, parseTableQuery, type CatalogueSource } from './catalogue/source.ts';
import { actionRoutes } from './catalogue/actions.ts';
import type { Runtime } from '../lib/process/runtime.ts';
import type { PageContext } from './catalogue/views.ts';
import { createGateway, escapeHtml, route, type Gateway, type Route } from './kit/index.ts';

export type { CatalogueSource } from './catalogue/source.ts';
export { accounts, type Accounts } from './catalogue/accounts.ts';

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

const HTML = { 200: { description: 'HTML page', content: { 'text/html': null } } };
const NAME = { type: 'string', minLength: 1, maxLength: 200 };

/**
 * Who is asking, for a page: from the real store's sessions when the gateway has Accounts; else
 * from the source (the test double's fixed viewer).
 */
type Visitor = (ctx: Context) => Promise<Pick<Visit, 'context' | 'headers'>>;

function visitorOf(options: CatalogueOptions): Visitor {
  const { accounts: a, source } = options;
  if (a) return (ctx) => visit(ctx, a);
  return async (ctx) => ({
    context: (await source?.context(ctx.get('cookie') || undefined)) ?? {},
    headers: {},
  });
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
  visitor: Visitor,
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
      const { context, headers } = await visitor(ctx);
      try {
        return page(await render(context, { params, query }), headers);
      } catch (error) {
        // A person in a browser gets the page's frame with the reason; API clients the usual {"detail"}.
        return errorPage(ctx, context, error);
      }
    },
  });
}

function pageRoutes(source: CatalogueSource, visitor: Visitor, a: Accounts | undefined): Route[] {
  const list: Render<unknown> = async (context, { query }) => {
    const q = typeof query.q === 'string' ? query.q.trim() : '';
    return renderDatasetList(context, await source.datasets(q, parsePage(query)));
  };
  return [
    pageRoute(visitor, '/', 'Dataset list', list),
    pageRoute(visitor, '/dataset', 'Dataset list and search (`q`, `page`)', list),
    pageRoute<Named>(
      visitor,
      '/dataset/{name}',
      'A dataset: its resources, who made each, the automation steps',
      async (context, { params }) => renderDataset(context, await source.dataset(params.name)),
    ),
    pageRoute<Named>(
      visitor,
      '/dataset/{name}/upload',
      'The upload form of a dataset',
      async (context, { params }) => renderUpload(context, await source.upload(params.name)),
    ),
    route<Query, { description?: string; _csrf?: string }, Named>({
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
        if (a) {
          const v = await visit(ctx, a);
          try {
            await checkForm(ctx, a, v, body._csrf);
          } catch (error) {
            return errorPage(ctx, v.context, error);
          }
        }
        const id = await source.addResource(p.name, { ...file, description: body.description });
        const location = resourcePath(p.name, id);
        if (ctx.accepts('html', 'json') === 'json') return { status: 201, json: { location } };
        return { redirect: location };
      },
    }),
    pageRoute<NamedId>(
      visitor,
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
      visitor,
      '/group/{name}',
      'A group of datasets (e.g. `mappings`)',
      async (context, { params }) => renderGroup(context, await source.group(params.name)),
    ),
    pageRoute(visitor, '/user/tokens', 'Your API tokens', async (context) =>
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

/** The login form; `next` only when it is a same-site path (never an open redirect after signing in). */
function loginPage(visitor: Visitor): Route {
  return pageRoute(visitor, '/user/login', 'The login form', (context, { query }) =>
    renderLogin(context, { next: safeNext(query.next) }),
  );
}

export interface CatalogueOptions {
  /** Where the pages' content comes from; without one, `/` is the placeholder page. */
  source?: CatalogueSource;
  /**
   * Authentication on the real catalogue store: login and logout, the page context from the
   * session, CSRF checks on every form post. Without it (tests of the pages alone) the viewer is
   * the source's and there is no login.
   */
  accounts?: Accounts;
  /** The process's bus and stores: with it, the CKAN Action API (`/api/3/action/{name}`) is served. */
  runtime?: Runtime;
}

export function catalogueGateway(options: CatalogueOptions = {}): Gateway {
  const visitor = visitorOf(options);
  const login = options.accounts || options.source ? [loginPage(visitor)] : [];
  const accountsRoutes = options.accounts ? accountRoutes(options.accounts) : [];
  const routes = options.source
    ? [...pageRoutes(options.source, visitor, options.accounts), ...login, ...accountsRoutes, assetRoute]
    : [
        route({
          method: 'GET',
          path: '/',
          summary: 'Catalogue home page',
          responses: HTML,
          handler: () => ({ body: placeholder(), contentType: 'text/html; charset=utf-8' }),
        }),
        ...login,
        ...accountsRoutes,
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
