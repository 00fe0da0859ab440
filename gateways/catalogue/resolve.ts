// IRIs that resolve. The chain mints IRIs under a resource's download URL: the annotator the
// table group (the CSV's own URL), its columns, notes and rows (`…/download/x.csv/table-1-Kraft`),
// the converter the joined graph's template individuals (`…/download/x-joined.ttl#Specimen`,
// next to the descriptor). Each answers, with the dataset's read permission (a private dataset
// is Not Found to others, as a missing one): a browser an HTML page, a client asking for
// Turtle, JSON-LD, RDF/XML or N3 the RDF — from the triple store when the dataset is loaded
// there, else from the dataset's stored graph files of the same source (each read bounded).
import type { Context } from 'koa';
import type * as RDF from '@rdfjs/types';
import { Parser } from 'n3';
import { notFound } from '../../lib/process/errors.ts';
import type { Runtime } from '../../app/runtime.ts';
import { FORMATS, serialize, type RdfFormat } from '../../lib/rdf/index.ts';
import { describedIn, isGraphFile, readGraphFile, tableOf, type ReadGraph } from '../../lib/rdf/subjects.ts';
import { isStrictIri } from '../../lib/triplestore/names.ts';
import { baseUrl } from '../../lib/services.ts';
import { text } from '../../lib/json.ts';
import { route, type Result, type Route, type RouteInput } from '../kit/index.ts';
import { callAction } from './actions.ts';
import { acceptedRdf } from './dcat.ts';
import { SUBJECTS_FIRST_BYTES } from './file-views.ts';
import type { PageVisit, Visitor } from './page-routes.ts';
import { resourcePath } from './pages/datasets.ts';
import { formatSize } from './html.ts';
import { renderDescribed } from './pages/described.ts';
import { errorPage, page } from './respond.ts';
import { sendSparql } from './sparql.ts';

type Dict = Record<string, unknown>;
type Query = Record<string, string | string[] | undefined>;
type Params = { name: string; id: string; file?: string; local?: string };

/** What is known of an IRI, and from where (in words, for the page). */
export interface Description {
  iri: string;
  /** The dataset the IRI was described from (for the page's links). */
  dataset?: { name: string; title: string };
  graph: ReadGraph;
  from: string;
}

const derivationSource = (r: Dict): string =>
  text((r.labld_derivation as Dict | null | undefined)?.source_resource_id) || text(r.id);

/** The dataset (as the asker may see it) and the resource the path names in it. */
async function resourceOf(
  runtime: Runtime,
  v: PageVisit,
  p: Params,
): Promise<{ d: Dict; r: Dict; all: Dict[] }> {
  const d = (await callAction(runtime, 'package_show', { id: p.name }, v.asker.credential)) as Dict;
  const all = Array.isArray(d.resources) ? (d.resources as Dict[]) : [];
  const r = all.find((x) => x.id === p.id);
  if (!r) throw notFound(`id: dataset ${p.name} has no resource ${p.id}`, 'id');
  return { d, r, all };
}

/** The blob of a resource's stored file (none for a link), as the asker may download it. */
async function blobOf(runtime: Runtime, v: PageVisit, r: Dict): Promise<string | undefined> {
  const file = (await callAction(
    runtime,
    'labld_resource_download',
    { id: r.id },
    v.asker.credential,
  )) as Dict;
  return typeof file.blob === 'string' ? file.blob : undefined;
}

async function fromTripleStore(runtime: Runtime, v: PageVisit, d: Dict, iri: string): Promise<RDF.Quad[]> {
  if (!isStrictIri(iri)) return [];
  const i = `<${iri}>`;
  const label = 'http://www.w3.org/2000/01/rdf-schema#label';
  // The IRI's triples, its blank values' triples, and the labels of what they use.
  const query = `CONSTRUCT { ${i} ?p ?o . ?o ?p2 ?o2 . ?p <${label}> ?pl . ?o <${label}> ?ol . ?o2 <${label}> ?o2l }
WHERE { ${i} ?p ?o .
  OPTIONAL { FILTER(isBlank(?o)) ?o ?p2 ?o2 OPTIONAL { ?o2 <${label}> ?o2l } }
  OPTIONAL { ?p <${label}> ?pl } OPTIONAL { ?o <${label}> ?ol } }`;
  const result = await sendSparql(runtime, 'query', {
    credential: v.asker.credential,
    id: text(d.id),
    text: query,
  });
  if (result.type !== 'graph') return [];
  return new Parser({ format: 'application/n-triples' }).parse(result.text);
}

/** The IRI from the triple store, else from the stored graphs derived from the same source. */
export async function describe(runtime: Runtime, v: PageVisit, p: Params, iri: string): Promise<Description> {
  const { d, r, all } = await resourceOf(runtime, v, p);
  const dataset = { name: text(d.name), title: text(d.title) || text(d.name) };
  const stored = await fromTripleStore(runtime, v, d, iri);
  if (stored.length > 0)
    return {
      iri,
      dataset,
      graph: { quads: stored, prefixes: {} },
      from: 'the triple store (the dataset’s loaded graphs)',
    };
  const source = derivationSource(r);
  const read: string[] = [];
  const skipped: string[] = [];
  const quads: RDF.Quad[] = [];
  const prefixes: Record<string, string> = {};
  for (const x of all.filter((x) => derivationSource(x) === source && isGraphFile(text(x.name)))) {
    const blob = await blobOf(runtime, v, x);
    if (blob === undefined) continue;
    if (runtime.blobs.size(blob) > SUBJECTS_FIRST_BYTES) {
      skipped.push(text(x.name));
      continue;
    }
    const graph = await readGraphFile(runtime.blobs.path(blob), text(x.name), text(x.url));
    const found = describedIn(graph.quads, iri);
    if (found.length > 0) read.push(text(x.name));
    quads.push(...found);
    Object.assign(prefixes, graph.prefixes);
  }
  const note = skipped.length
    ? ` (${skipped.join(', ')} not read: larger than ${formatSize(SUBJECTS_FIRST_BYTES)}; load the dataset to describe what they hold)`
    : '';
  if (quads.length === 0) throw notFound(`${iri}: not described in this dataset's graphs${note}`, 'iri');
  return {
    iri,
    dataset,
    graph: { quads, prefixes },
    from: `the stored file${read.length > 1 ? 's' : ''} ${read.join(', ')}${note}`,
  };
}

/** A whole stored graph (the joined graph, as its document IRI names it), read bounded. */
async function described(runtime: Runtime, v: PageVisit, graph: Dict): Promise<Description> {
  const blob = await blobOf(runtime, v, graph);
  if (blob === undefined) throw notFound(`id: resource ${text(graph.id)} has no stored file`, 'id');
  const read = await readGraphFile(runtime.blobs.path(blob), text(graph.name), text(graph.url));
  return { iri: text(graph.url), graph: read, from: `the stored file ${text(graph.name)}` };
}

/** The description as RDF in `format`, or as the page a browser gets. */
async function answer(
  ctx: Context,
  v: PageVisit,
  described: Description,
  format: RdfFormat | undefined,
): Promise<Result> {
  ctx.vary('Accept');
  if (format) {
    return {
      body: await serialize(described.graph.quads, format, { prefixes: described.graph.prefixes }),
      contentType: `${FORMATS[format].contentType}; charset=utf-8`,
      headers: v.headers,
    };
  }
  const table = tableOf(described.graph, described.iri, 1, 1000, described.iri);
  return page(renderDescribed(v.context, { ...described, table }), v.headers);
}

type Handler = (input: RouteInput<Query, unknown, Params>, ctx: Context) => Promise<Result>;

/** A thing the annotator minted below a CSV's URL: `…/download/{file}/{local}`. */
export function mintedRoute(runtime: Runtime, visitor: Visitor): Route {
  return route<Query, unknown, Params>({
    method: 'GET',
    path: '/dataset/{name}/resource/{id}/download/{file}/{local}',
    params: {
      type: 'object',
      properties: Object.fromEntries(
        ['name', 'id', 'file', 'local'].map((n) => [n, { type: 'string', minLength: 1, maxLength: 1024 }]),
      ),
      required: ['name', 'id', 'file', 'local'],
    },
    summary:
      'A thing the chain minted below a CSV (a column, a note, a row): an HTML page, or its RDF by Accept (Turtle, JSON-LD, RDF/XML, N3)',
    responses: {
      200: { description: 'The thing described' },
      404: { description: 'Not described, or not readable' },
    },
    handler: async ({ params }, ctx) => {
      const v = await visitor(ctx);
      try {
        return await answer(
          ctx,
          v,
          await describe(runtime, v, params, `${baseUrl()}${ctx.path}`),
          acceptedRdf(ctx.get('accept')),
        );
      } catch (error) {
        return errorPage(ctx, v.context, error);
      }
    },
  });
}

/**
 * The download routes, resolving: a name that is not the resource's own but that of a graph made
 * from the same source (the joined graph's document, whose `#…` IRIs the converter minted next
 * to the descriptor) leads a browser to that graph's subjects (the fragment kept, landing on
 * its row) and gives a client its RDF; a stored file that is not RDF (the CSV, the table
 * group's IRI) gives its description to an Accept that prefers RDF. Else the bytes, as before.
 */
export function resolvingDownload(runtime: Runtime, visitor: Visitor, download: Route): Route {
  if (!download.path.startsWith('/dataset/{name}/resource/{id}/download')) return download;
  const bytes = download.handler as Handler;
  const handler: Handler = async (input, ctx) => {
    const p = input.params;
    const format = acceptedRdf(ctx.get('accept'));
    const v = await visitor(ctx);
    const { d, r, all } = await resourceOf(runtime, v, p);
    if (p.file !== undefined && p.file !== text(r.name)) {
      const graph = all.find(
        (x) => text(x.name) === p.file && derivationSource(x) === derivationSource(r) && x.id !== r.id,
      );
      if (graph) {
        ctx.vary('Accept');
        if (!format) return { redirect: `${resourcePath(text(d.name), text(graph.id))}?view=subjects` };
        if (format === 'turtle' && /\.ttl$/i.test(text(graph.name)))
          return bytes({ ...input, params: { ...p, id: text(graph.id), file: text(graph.name) } }, ctx);
        return answer(ctx, v, await described(runtime, v, graph), format);
      }
    }
    if (format && !isGraphFile(text(r.name)) && p.file !== undefined) {
      return answer(ctx, v, await describe(runtime, v, p, `${baseUrl()}${ctx.path}`), format);
    }
    return bytes(input, ctx);
  };
  return { ...download, handler } as Route;
}
