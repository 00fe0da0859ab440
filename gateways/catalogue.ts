// The catalogue at `/`: the dataset list and search, dataset, upload, resource with its table
// preview, group, login and API token pages (gateways/catalogue/page-routes.ts) and the CKAN
// Action API (gateways/catalogue/actions.ts). What `labld start` gives it — the runtime and
// Accounts — makes it the real catalogue: pages from the actions (ActionSource), authentication
// on the catalogue store. Without them, `/` is a placeholder linking the services.
import { editRoutes } from './catalogue/edit-routes.ts';
import { mappingRoutes } from './catalogue/mapping-routes.ts';
import { MappingSource } from './catalogue/mapping-source.ts';
import { EditSource } from './catalogue/edit-source.ts';
import { notFound } from '../lib/process/errors.ts';
import type { Runtime } from '../app/runtime.ts';
import { SERVICES, services } from '../lib/services.ts';
import { accountRoutes, type Accounts } from './catalogue/accounts.ts';
import { ActionSource } from './catalogue/action-source.ts';
import { actionRoutes } from './catalogue/actions.ts';
import { sparqlRoutes } from './catalogue/sparql.ts';
import { dcatRoutes, negotiatedDatasetPage } from './catalogue/dcat.ts';
import { ASSET_PREFIX, LONG_CACHE, assetByHashedName } from './catalogue/assets.ts';
import { loginPage, pageRoutes, visitorOf } from './catalogue/page-routes.ts';
import { mintedRoute, resolvingDownload } from './catalogue/resolve.ts';
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

/** The dataset page answers DCAT to an Accept that prefers RDF (ckanext-dcat's content negotiation). */
const negotiated =
  (runtime: Runtime) =>
  (r: Route): Route =>
    r.method === 'GET' && r.path === '/dataset/{name}' ? negotiatedDatasetPage(runtime, r) : r;

export interface CatalogueOptions {
  /**
   * Authentication on the catalogue store: login and logout, the page context from the session,
   * CSRF checks on every form post. With `runtime`, the pages are served.
   */
  accounts?: Accounts;
  /** The process's bus and stores: with it, the CKAN Action API (`/api/3/action/{name}`) is served. */
  runtime?: Runtime;
}

export function catalogueGateway(options: CatalogueOptions = {}): Gateway {
  const a = options.accounts;
  const visitor = a ? visitorOf(a) : undefined;
  const login = a && visitor ? [loginPage(visitor), ...accountRoutes(a)] : [];
  const routes =
    options.runtime && a && visitor
      ? [
          ...pageRoutes(new ActionSource(options.runtime), visitor, a)
            .map(negotiated(options.runtime))
            .map((r) => resolvingDownload(options.runtime!, visitor, r)),
          mintedRoute(options.runtime, visitor),
          ...editRoutes(new EditSource(options.runtime), visitor, a),
          ...mappingRoutes(new MappingSource(options.runtime), visitor, a),
          ...login,
          assetRoute,
        ]
      : [
          route({
            method: 'GET',
            path: '/',
            summary: 'Catalogue home page',
            responses: HTML,
            handler: () => ({ body: placeholder(), contentType: 'text/html; charset=utf-8' }),
          }),
          ...login,
          assetRoute,
        ];
  if (options.runtime) {
    routes.unshift(
      ...actionRoutes(options.runtime),
      ...sparqlRoutes(options.runtime, a),
      ...dcatRoutes(options.runtime),
    );
  }
  return createGateway({
    service: 'catalogue',
    title: 'labld catalogue',
    version: '0.1.0',
    basePath: '/',
    routes,
  });
}
