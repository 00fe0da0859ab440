// DCAT as ckanext-dcat serves it: `/dataset/<id or name>.<ext>` and `/catalog.<ext>` (ext: ttl,
// jsonld, rdf, xml, n3), and `/dataset/<id or name>` with an Accept that prefers RDF (its
// content negotiation). The datasets come from package_show and package_search, called with the
// request's credential, so DCAT shows exactly what the Action API shows that caller; the
// mapping is lib/catalogue/dcat.ts, the writing lib/rdf.
import type { Context } from 'koa';
import { DCAT_PREFIXES, catalogQuads, datasetQuads } from '../../lib/catalogue/dcat.ts';
import { intSetting } from '../../lib/process/config.ts';
import { invalid } from '../../lib/process/errors.ts';
import type { Runtime } from '../../app/runtime.ts';
import { FORMATS, serialize, type RdfFormat } from '../../lib/rdf/index.ts';
import { baseUrl } from '../../lib/services.ts';
import { route, tokenAccepted, type Result, type Route, type RouteInput } from '../kit/index.ts';
import { callAction, credential } from './actions.ts';
import { parsePage } from './source.ts';

/** ckanext-dcat's extensions (CONTENT_TYPES); `xml` is its older name of `rdf`. */
const EXTENSIONS: readonly [string, RdfFormat][] = [
  ['ttl', 'turtle'],
  ['jsonld', 'json-ld'],
  ['rdf', 'xml'],
  ['xml', 'xml'],
  ['n3', 'n3'],
];

/** Media types an Accept header may ask for, the first of a type answering its `type/*`. */
const MEDIA_TYPES: readonly [string, RdfFormat][] = [
  ['text/turtle', 'turtle'],
  ['text/n3', 'n3'],
  ['application/rdf+xml', 'xml'],
  ['application/ld+json', 'json-ld'],
];

/**
 * The RDF format an Accept header prefers, as ckanext-dcat reads it: by quality, the first
 * range that is text/html (none: the page), an RDF type, or `type/*` of one; `*\/*` is none.
 */
export function acceptedRdf(accept: string): RdfFormat | undefined {
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return { type, q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((r) => r.type !== '' && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { type } of ranges) {
    if (type === 'text/html') return undefined;
    const exact = MEDIA_TYPES.find(([media]) => media === type);
    if (exact) return exact[1];
    const [major, minor] = type.split('/');
    if (minor === '*' && major !== '*') {
      const some = MEDIA_TYPES.find(([media]) => media.startsWith(`${major}/`));
      if (some) return some[1];
    }
  }
  return undefined;
}

async function rdfAnswer(quads: Parameters<typeof serialize>[0], format: RdfFormat): Promise<Result> {
  return {
    body: await serialize(quads, format, { prefixes: DCAT_PREFIXES }),
    contentType: `${FORMATS[format].contentType}; charset=utf-8`,
  };
}

type Query = Record<string, string | string[] | undefined>;

/** One dataset as DCAT: package_show's dict (a dataset the caller may not read is Not Found). */
async function datasetAnswer(
  runtime: Runtime,
  ctx: Context,
  ref: string,
  format: RdfFormat,
): Promise<Result> {
  const caller = credential(ctx, 'GET');
  const pkg = (await callAction(runtime, 'package_show', { id: ref }, caller)) as Record<string, unknown>;
  if (caller.kind === 'token') tokenAccepted(ctx);
  return rdfAnswer(datasetQuads(pkg, baseUrl()), format);
}

const CATALOG_PARAMS = ['page', 'q', 'fq'];

function one(query: Query, name: string): string {
  const value = query[name];
  if (Array.isArray(value)) throw invalid(`${name}: given more than once`, name);
  return value ?? '';
}

/** A page of the datasets the caller may read, newest change first, as ckanext-dcat's catalog. */
async function catalogAnswer(
  runtime: Runtime,
  ctx: Context,
  query: Query,
  format: RdfFormat,
): Promise<Result> {
  for (const name of Object.keys(query)) {
    if (!CATALOG_PARAMS.includes(name)) {
      throw invalid(`${name}: the catalog reads only ${CATALOG_PARAMS.join(', ')}`, name);
    }
  }
  const page = parsePage(query);
  // A page size below 1 would page nothing: taken as 1.
  const perPage = Math.max(1, intSetting('CKANINI__CKANEXT__DCAT__DATASETS_PER_PAGE'));
  const caller = credential(ctx, 'GET');
  const search = (params: Record<string, unknown>) =>
    callAction(
      runtime,
      'package_search',
      { sort: 'metadata_modified desc', include_private: true, ...params },
      caller,
    );
  const q = one(query, 'q');
  const fq = one(query, 'fq');
  const found = (await search({
    q: q || '*:*',
    ...(fq ? { fq } : {}),
    rows: perPage,
    start: (page - 1) * perPage,
  })) as { count: number; results: Record<string, unknown>[] };
  // dct:modified of the catalog: the newest change of any dataset the caller may read.
  const newest = (await search({ rows: 1 })) as { results: Record<string, unknown>[] };
  if (caller.kind === 'token') tokenAccepted(ctx);
  const others = Object.entries(query).filter(([name]) => name !== 'page') as [string, string][];
  const pageUrl = (n: number) =>
    `${baseUrl()}${ctx.path}?${new URLSearchParams([...others, ['page', String(n)]]).toString()}`;
  const site = {
    siteUrl: baseUrl(),
    title: 'labld catalogue',
    description: 'Tabular lab data, its CSVW descriptions and its linked data',
    modified: newest.results[0]?.metadata_modified,
  };
  return rdfAnswer(catalogQuads(site, found.results, { count: found.count, page, perPage, pageUrl }), format);
}

const RDF_RESPONSES = {
  200: {
    description: 'DCAT-AP 3 in the extension’s format',
    content: Object.fromEntries(MEDIA_TYPES.map(([media]) => [media, null])),
  },
  404: { description: 'No such dataset, or one the caller may not read' },
};

const REF = { type: 'object', properties: { id: { type: 'string', minLength: 1, maxLength: 200 } } };

/** The DCAT endpoints; they go before the pages, whose `/dataset/{name}` would take `x.ttl` as a name. */
export function dcatRoutes(runtime: Runtime): Route[] {
  return EXTENSIONS.flatMap(([ext, format]) => [
    route<Query, unknown, { id: string }>({
      method: 'GET',
      path: `/dataset/{id}.${ext}`,
      params: REF,
      summary: `A dataset (by id or name) as DCAT-AP 3 (${FORMATS[format].contentType}), as ckanext-dcat`,
      responses: RDF_RESPONSES,
      handler: ({ params }, ctx) => datasetAnswer(runtime, ctx, params.id, format),
    }),
    route<Query>({
      method: 'GET',
      path: `/catalog.${ext}`,
      summary: `The datasets the caller may read as a DCAT-AP 3 catalog (${FORMATS[format].contentType}), paged (\`page\`; \`q\`, \`fq\` as package_search), as ckanext-dcat`,
      responses: { 200: RDF_RESPONSES[200] },
      handler: ({ query }, ctx) => catalogAnswer(runtime, ctx, query, format),
    }),
  ]);
}

/**
 * The dataset page, negotiated: an Accept that prefers an RDF type gets the dataset as DCAT,
 * any other (a browser's text/html, a script's JSON) the page as before. Both vary by Accept.
 */
type PageHandler = (input: RouteInput<Query, unknown, { name: string }>, ctx: Context) => Promise<Result>;

export function negotiatedDatasetPage(runtime: Runtime, page: Route): Route {
  const handler = page.handler as PageHandler;
  const negotiated: PageHandler = async (input, ctx) => {
    ctx.vary('Accept');
    const format = acceptedRdf(ctx.get('accept'));
    return format ? datasetAnswer(runtime, ctx, input.params.name, format) : handler(input, ctx);
  };
  return {
    ...page,
    summary: `${page.summary}; with an Accept of text/turtle, application/ld+json, application/rdf+xml or text/n3 the dataset as DCAT`,
    handler: negotiated,
  } as Route;
}
