// The catalogue at `/`: the dataset list and search, dataset, upload, resource with its table
// preview, group, login and API token pages (gateways/catalogue/page-routes.ts) and the CKAN
// Action API (gateways/catalogue/actions.ts). What `labld start` gives it — the runtime and
// Accounts — makes it the real catalogue: pages from the actions (ActionSource), authentication
// on the catalogue store. Tests of the pages alone pass a source (the test double); with
// neither, `/` is a placeholder linking the services.
import { notFound } from '../lib/process/errors.ts';
import type { Runtime } from '../lib/process/runtime.ts';
import { SERVICES, services } from '../lib/services.ts';
import { accountRoutes, type Accounts } from './catalogue/accounts.ts';
import { ActionSource } from './catalogue/action-source.ts';
import { actionRoutes } from './catalogue/actions.ts';
import { sparqlRoutes } from './catalogue/sparql.ts';
import { ASSET_PREFIX, LONG_CACHE, assetByHashedName } from './catalogue/assets.ts';
import { loginPage, pageRoutes, visitorOf } from './catalogue/page-routes.ts';
import type { CatalogueSource } from './catalogue/source.ts';
import { createGateway, escapeHtml, route, type Gateway } from './kit/index.ts';

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

export interface CatalogueOptions {
  /** Where the pages' content comes from; default: the catalogue's actions when `runtime` is given. */
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
  const source =
    options.source ?? (options.runtime && options.accounts ? new ActionSource(options.runtime) : undefined);
  const visitor = visitorOf(source, options.accounts);
  const login = options.accounts || source ? [loginPage(visitor)] : [];
  const accountsRoutes = options.accounts ? accountRoutes(options.accounts) : [];
  const routes = source
    ? [...pageRoutes(source, visitor, options.accounts), ...login, ...accountsRoutes, assetRoute]
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
  if (options.runtime) routes.unshift(...actionRoutes(options.runtime), ...sparqlRoutes(options.runtime));
  return createGateway({
    service: 'catalogue',
    title: 'labld catalogue',
    version: '0.1.0',
    basePath: '/',
    routes,
  });
}
