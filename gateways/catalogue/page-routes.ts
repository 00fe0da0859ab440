// The catalogue's pages as routes: each GET page renders a view model its source builds for the
// asker; each form post is checked against CSRF before the source acts,
// and answers a redirect (303) to what it made, or the form's page again with the reason.
import type { Context } from 'koa';
import { invalid, unauthorized } from '../../lib/process/errors.ts';
import { route, type Result, type Route } from '../kit/index.ts';
import { userFileHeaders } from '../kit/user-file.ts';
import { checkForm, formPost, safeNext, visit, type Accounts, type Visit } from './accounts.ts';
import { renderLogin, renderTokens } from './pages/account.ts';
import {
  datasetPath,
  renderDataset,
  renderResources,
  renderDatasetList,
  renderGroup,
  renderNewDataset,
  renderUpload,
  resourcePath,
} from './pages/datasets.ts';
import { QUERY_PAGE_CSP, renderQueryPage } from './pages/query.ts';
import { renderResource } from './pages/resource.ts';
import { parseSentence, queryPagePath } from './query-params.ts';
import { renderAutomation } from './pages/automation.ts';
import { errorPage, page } from './respond.ts';
import {
  parsePage,
  parsePlotParams,
  parsePlotQuery,
  parseTableQuery,
  type Asker,
  type CatalogueSource,
} from './source.ts';
import type { PageContext } from './views.ts';

const HTML = { 200: { description: 'HTML page', content: { 'text/html': null } } };
const NAME = { type: 'string', minLength: 1, maxLength: 200 };
/** A download URL's file name (a stored name is at most 255 UTF-8 bytes): only for the reader. */
const FILE = { type: 'string', minLength: 1, maxLength: 1024 };
/** A form of a few short fields (a dataset's description is the longest): far below this. */
const FORM_LIMIT = 64 * 1024;

/** A request as a page sees it: the viewer's page context, cookies to set, and who asks the source. */
export interface PageVisit {
  context: PageContext;
  headers: Record<string, string>;
  asker: Asker;
  /** The accounts' view of the request (for the CSRF check). */
  visit: Visit;
}

/** Who is asking, for a page: from the catalogue store's tokens and sessions. */
export type Visitor = (ctx: Context) => Promise<PageVisit>;

function pageVisitOf(v: Visit): PageVisit {
  const asker: Asker = { credential: v.credential };
  if (v.viewer.user) asker.userName = v.viewer.user.name;
  return { context: v.context, headers: v.headers, asker, visit: v };
}

export function visitorOf(a: Accounts): Visitor {
  return async (ctx) => pageVisitOf(await visit(ctx, a));
}

export type Query = Record<string, string | string[] | undefined>;
export type Named = { name: string };
export type NamedId = { name: string; id: string };

export function paramsSchema(names: string[]): Record<string, unknown> {
  const properties = Object.fromEntries(names.map((n) => [n, n === 'file' ? FILE : NAME]));
  return { type: 'object', properties, required: names };
}

function pathParams(path: string): Record<string, unknown> {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return names.length > 0 ? { params: paramsSchema(names) } : {};
}

/** A page's HTML; with a status when the page itself tells a refusal (e.g. the plot's table). */
type Rendered = string | { html: string; status: number };
type Render<P> = (visit: PageVisit, input: { params: P; query: Query }) => Promise<Rendered> | Rendered;

/** A GET page: the visit and the request → HTML. Path parameters are names (1–200 characters). */
export function pageRoute<P = Record<string, string>>(
  visitor: Visitor,
  path: string,
  summary: string,
  render: Render<P>,
  /** Headers of this page beyond the visit's (e.g. its own CSP). */
  own: Record<string, string> = {},
): Route {
  return route<Query, unknown, P>({
    method: 'GET',
    path,
    summary,
    ...pathParams(path),
    responses: HTML,
    handler: async ({ params, query }, ctx) => {
      const v = await visitor(ctx);
      try {
        const made = await render(v, { params, query });
        const [html, status] = typeof made === 'string' ? [made, undefined] : [made.html, made.status];
        return page(html, { ...own, ...v.headers }, status);
      } catch (error) {
        // A person in a browser gets the page's frame with the reason; API clients the usual {"detail"}.
        return errorPage(ctx, v.context, error);
      }
    },
  });
}

type Act<P> = (visit: PageVisit, form: Record<string, string>, params: P) => Promise<Result>;

/** A form post (urlencoded): read, CSRF-checked, then `act`; a refusal is a page. */
export function formRoute<P = Record<string, string>>(
  visitor: Visitor,
  a: Accounts,
  path: string,
  summary: string,
  act: Act<P>,
): Route {
  return route<Query, unknown, P>({
    method: 'POST',
    path,
    summary,
    ...pathParams(path),
    responses: { 303: { description: 'Done: to what was made or changed' }, 403: { description: 'CSRF' } },
    handler: ({ params }, ctx) =>
      formPost(
        ctx,
        a,
        async (visit, form) => {
          const v = pageVisitOf(visit);
          try {
            return await act(v, form, params);
          } catch (error) {
            return errorPage(ctx, v.context, error);
          }
        },
        FORM_LIMIT,
      ),
  });
}

/** A form field that must be given. */
export function required(form: Record<string, string>, name: string): string {
  const value = (form[name] ?? '').trim();
  if (value === '') throw invalid(`${name}: missing`, name);
  return value;
}

export function checkbox(value: string | undefined): boolean {
  return value === 'on' || value === 'true' || value === '1';
}

export function pageRoutes(source: CatalogueSource, visitor: Visitor, a: Accounts): Route[] {
  const list: Render<unknown> = async ({ context, asker }, { query }) => {
    const q = typeof query.q === 'string' ? query.q.trim() : '';
    return renderDatasetList(context, await source.datasets(asker, q, parsePage(query)));
  };
  return [
    pageRoute(visitor, '/', 'Dataset list', list),
    pageRoute(visitor, '/dataset', 'Dataset list and search (`q`, `page`)', list),
    pageRoute(visitor, '/dataset/new', 'The form that makes a dataset', ({ context, asker }) => {
      if (asker.userName === undefined) throw unauthorized('Log in to make a dataset.', 'user');
      return renderNewDataset(context, {});
    }),
    formRoute(
      visitor,
      a,
      '/dataset/new',
      'Make a dataset (form: `name`, `title`, `notes`, `private`, `_csrf`); to its page',
      async ({ context, asker }, form) => {
        const fields = {
          name: (form.name ?? '').trim(),
          title: (form.title ?? '').trim(),
          notes: form.notes ?? '',
          private: checkbox(form.private),
        };
        try {
          return { redirect: datasetPath(await source.createDataset(asker, fields)) };
        } catch (error) {
          // The form again with what was typed and the reason, for a name taken or invalid.
          if (!(error instanceof Error) || !('kind' in error) || error.kind === 'unauthorized') throw error;
          const status = error.kind === 'conflict' ? 409 : error.kind === 'invalid' ? 422 : undefined;
          if (status === undefined) throw error;
          return page(renderNewDataset(context, { values: fields, error: error.message }), {}, status);
        }
      },
    ),
    pageRoute<Named>(
      visitor,
      '/dataset/{name}',
      'A dataset: its resources, who made each, the automation steps, the triple store, a plot (`plot`, `x`, `y`)',
      async ({ context, asker }, { params, query }) => {
        const view = await source.dataset(asker, params.name, parsePlotQuery(query));
        const html = renderDataset(context, view);
        return view.plot?.refused ? { html, status: 422 } : html;
      },
    ),
    formRoute<Named>(
      visitor,
      a,
      '/dataset/{name}/triplestore/load',
      'Load the dataset into the triple store (form: `_csrf`, `rows` checkbox: the measurements too; editors), as the action triplestore_load',
      async ({ asker }, form, params) => {
        await source.loadTripleStore(asker, params.name, checkbox(form.rows));
        return { redirect: `${datasetPath(params.name)}#triplestore` };
      },
    ),
    route<Query, unknown, NamedId>({
      method: 'GET',
      path: '/dataset/{name}/resource/{id}/plot',
      params: paramsSchema(['name', 'id']),
      summary:
        'A plot of a table: its numeric columns; with `x` and `y` (columns) the points, at most `points` (10–10000, default 2000), as labld_datastore_plot',
      responses: { 200: { description: '{columns, x, y, points: {x: [], y: []}}' } },
      handler: async ({ params: p, query }, ctx) => {
        const v = await visitor(ctx);
        return { json: await source.plot(v.asker, p.name, p.id, parsePlotParams(query)), headers: v.headers };
      },
    }),
    pageRoute<Named>(
      visitor,
      '/dataset/{name}/resources',
      "A dataset page's Resources section alone, as HTML (what its script fetches when the steps changed)",
      async ({ asker }, { params }) => renderResources(await source.resources(asker, params.name)),
    ),
    pageRoute<Named>(
      visitor,
      '/dataset/{name}/automation',
      "A dataset page's Automation section alone, as HTML (what its script polls while steps run)",
      async ({ context, asker }, { params }) =>
        renderAutomation(context, await source.automation(asker, params.name)),
    ),
    formRoute<Named>(
      visitor,
      a,
      '/dataset/{name}/automation/retry',
      'Run a failed chain step again (form: `resource_id`, `step`, `_csrf`; editors); to the Automation section',
      async ({ asker }, form, params) => {
        await source.retryStep(asker, params.name, required(form, 'resource_id'), required(form, 'step'));
        return { redirect: `${datasetPath(params.name)}#automation` };
      },
    ),
    formRoute<Named>(
      visitor,
      a,
      '/group/{name}/dataset',
      'Make a dataset of your own in the group (form: `name`, `title`, `_csrf`; anyone logged in), e.g. a shelf of the mapping library; back to the group',
      async ({ asker }, form, params) => {
        const fields = {
          name: required(form, 'name'),
          title: (form.title ?? '').trim(),
          notes: '',
          private: false,
        };
        await source.createGroupDataset(asker, params.name, fields);
        return { redirect: `/group/${encodeURIComponent(params.name)}#add-mapping` };
      },
    ),
    formRoute<Named>(
      visitor,
      a,
      '/dataset/{name}/dead-letters/replay',
      "Replay one of the chain's dead letters (form: `id`, `_csrf`; the dataset's admins); to the Automation section",
      async ({ asker }, form, params) => {
        await source.replayDeadLetter(asker, params.name, required(form, 'id'));
        return { redirect: `${datasetPath(params.name)}#automation` };
      },
    ),
    pageRoute<Named>(
      visitor,
      '/dataset/{name}/upload',
      'The upload form of a dataset',
      async ({ context, asker }, { params }) =>
        renderUpload(context, await source.upload(asker, params.name)),
    ),
    route<Query, { description?: string; _csrf?: string; _idempotency?: string }, Named>({
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
            properties: {
              description: { type: 'string', maxLength: 2000 },
              _csrf: { type: 'string' },
              _idempotency: { type: 'string', maxLength: 255 },
            },
          },
        },
      },
      responses: { 201: { description: 'Created' }, 303: { description: 'To the new resource' } },
      handler: async ({ params: p, file, body }, ctx) => {
        const v = await visitor(ctx);
        try {
          await checkForm(ctx, a, v.visit, body._csrf);
          if (!file) throw invalid('file: choose a file to upload', 'file');
          const id = await source.addResource(v.asker, p.name, {
            ...file,
            description: body.description,
            idempotencyKey: body._idempotency || undefined,
          });
          const location = resourcePath(p.name, id);
          if (ctx.accepts('html', 'json') === 'json') return { status: 201, json: { location } };
          return { redirect: location };
        } catch (error) {
          return errorPage(ctx, v.context, error);
        }
      },
    }),
    pageRoute<NamedId>(
      visitor,
      '/dataset/{name}/resource/{id}',
      'A resource and its table preview (`sort`, `order`, `f.<column>`, `page`)',
      async ({ context, asker }, { params, query }) =>
        renderResource(context, await source.resource(asker, params.name, params.id, parseTableQuery(query))),
    ),
    ...[
      '/dataset/{name}/resource/{id}/download',
      // CKAN's form, which the Action API's resource `url` uses: the file name is for the reader.
      '/dataset/{name}/resource/{id}/download/{file}',
    ].map((path) =>
      route<Query, unknown, NamedId>({
        method: 'GET',
        path,
        ...pathParams(path),
        summary: 'The bytes of a resource',
        responses: { 200: { description: 'The file' } },
        handler: async ({ params: p }, ctx) => {
          const v = await visitor(ctx);
          const file = await source.download(v.asker, p.name, p.id);
          // Always a download (CKAN's), with the headers of every user file.
          const served = userFileHeaders(file.contentType, file.filename, 'attachment');
          return { body: { path: file.path }, contentType: served.contentType, headers: served.headers };
        },
      }),
    ),
    pageRoute<Named>(
      visitor,
      '/dataset/{name}/query',
      "The query page: the sentence builder (`class`, `p1`, `f1`, `v1`, …) and YASGUI on the dataset's endpoint",
      async ({ context, asker }, { params, query }) =>
        renderQueryPage(
          context,
          await source.queryPage(asker, params.name, parseSentence(query)),
          query.loading === '1',
        ),
      { 'Content-Security-Policy': QUERY_PAGE_CSP },
    ),
    formRoute<Named>(
      visitor,
      a,
      '/dataset/{name}/query/load',
      'The Load button of the query page (triplestore_load; form: `_csrf`, `rows` checkbox); back to the query page',
      async ({ asker }, form, params) => {
        await source.loadTripleStore(asker, params.name, checkbox(form.rows));
        return { redirect: `${queryPagePath(params.name)}?loading=1` };
      },
    ),
    pageRoute<Named>(
      visitor,
      '/group/{name}',
      'A group of datasets (e.g. `mappings`)',
      async ({ context, asker }, { params }) => renderGroup(context, await source.group(asker, params.name)),
    ),
    pageRoute(visitor, '/user/tokens', 'Your API tokens', async ({ context, asker }) =>
      renderTokens(context, await source.tokens(asker)),
    ),
    formRoute(
      visitor,
      a,
      '/user/tokens',
      'Make an API token (form: `name`, `_csrf`); the page shows it once',
      async ({ context, asker, headers }, form) => {
        const name = (form.name ?? '').trim();
        if (name === '') throw invalid('name: give the token a name', 'name');
        const secret = await source.createToken(asker, name);
        // The page itself, not a redirect: the secret must not travel in a URL or be shown twice.
        return page(renderTokens(context, await source.tokens(asker, { name, secret })), headers, 201);
      },
    ),
    formRoute<{ id: string }>(
      visitor,
      a,
      '/user/tokens/{id}/revoke',
      'Revoke one of your API tokens (form: `_csrf`)',
      async ({ asker }, _form, params) => {
        await source.revokeToken(asker, params.id);
        return { redirect: '/user/tokens' };
      },
    ),
  ];
}

/** The login form; `next` only when it is a same-site path (never an open redirect after signing in). */
export function loginPage(visitor: Visitor): Route {
  return pageRoute(visitor, '/user/login', 'The login form', ({ context }, { query }) =>
    renderLogin(context, { next: safeNext(query.next) }),
  );
}
