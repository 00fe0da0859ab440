// Loading a catalogue dataset into the triple store (spec step 7, the load button): each
// loadable resource replaces its own named graph (the original's IRI scheme: the resource's
// download URL, research §2.3), graphs whose resource is gone are dropped, and the dataset's
// SPARQL endpoint resource is registered. Unlike the original, nothing is dropped first (a
// query sees the old graph or the new one) and a change to a loaded dataset syncs it. On
// request the rows go in too: each source's describe graph in its own named graph, within
// LABLD_LOAD_ROWS_MAX_BYTES (issue 28: the measurements were never in the store).
import type { BlobStore } from '../blobs/blob-store.ts';
import type { ChainStep } from './status.ts';
import type { LoadReason } from '../contracts/triplestore.ts';
import { byteSetting } from '../process/config.ts';
import { isDomainError, tooLarge } from '../process/errors.ts';
import { downloadUrl } from '../contracts/catalogue.ts';
import type { TripleStore } from '../triplestore/contract.ts';

/** What the load reads of a catalogue resource (the catalogue's `Resource` has all of it). */
export interface LoadResource {
  id: string;
  package_id: string;
  position: number;
  name: string;
  format: string;
  url: string;
  url_type: string;
  blob_key: string | null;
  derivation: { step: string } | null;
}

/** The endpoint resource as the load writes it. */
interface EndpointFields {
  name: string;
  format: string;
  url: string;
  url_type: 'link';
  mimetype: string;
  description: string;
  wasGeneratedBy: string;
}

/**
 * What the load asks of the catalogue: the calls it makes on the catalogue store (which
 * fulfils this), and nothing of the store's inside.
 */
export interface LoadCatalogue {
  getDataset(idOrName: string): Promise<{ id: string } | undefined>;
  listResources(datasetId: string): Promise<LoadResource[]>;
  createResource(datasetId: string, fields: EndpointFields): Promise<LoadResource>;
  updateResource(id: string, changes: EndpointFields): Promise<LoadResource>;
  deleteResource(id: string): Promise<void>;
}

export interface LoadDeps {
  store: LoadCatalogue;
  tripleStore: TripleStore;
  blobs: BlobStore;
  /** Public URL of labld without a trailing slash. */
  siteUrl: string;
}

/** The endpoint resource, found again by its name and format (the original's `SPARQL` link). */
export const ENDPOINT_NAME = 'SPARQL';
export const ENDPOINT_FORMAT = 'SPARQL';

export function endpointUrl(siteUrl: string, datasetId: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/dataset/${encodeURIComponent(datasetId)}/triplestore/sparql`;
}

function isTurtle(r: LoadResource): boolean {
  const format = r.format
    .toLowerCase()
    .split(/[;/]/)
    .map((p) => p.trim());
  return format.includes('turtle') || format.includes('ttl') || r.url.toLowerCase().endsWith('.ttl');
}

/** The chain step whose output holds a source's rows: describe's `<base>.ttl` (spec step 4). */
const ROWS_STEP: ChainStep = 'describe';

/** A source's rows as the describe step stored them: a derived resource, known by its derivation. */
export function isRows(r: LoadResource): boolean {
  return r.derivation?.step === ROWS_STEP && r.url_type === 'upload' && r.blob_key !== null;
}

/**
 * What a load takes: the joined graphs (`*-joined.ttl`, spec step 6) when the dataset has any;
 * otherwise every uploaded Turtle resource, so that a dataset whose graph was made elsewhere
 * can be loaded too. Only uploads: a link's bytes are not ours to fetch here. The rows (the
 * dataset's largest graphs by far) only when asked for.
 */
export function loadableResources<R extends LoadResource>(resources: readonly R[], rows = false): R[] {
  const turtle = resources.filter(
    (r) => r.url_type === 'upload' && r.blob_key !== null && isTurtle(r) && !isRows(r),
  );
  const joined = turtle.filter((r) => r.name.toLowerCase().endsWith('-joined.ttl'));
  const graphs = joined.length > 0 ? joined : turtle;
  return rows ? [...graphs, ...resources.filter(isRows)] : graphs;
}

const MB = 2 ** 20;
const size = (bytes: number) =>
  bytes < MB ? `${bytes.toLocaleString('en')} bytes` : `${(bytes / MB).toFixed(1)} MB`;

/**
 * Refuses rows past LABLD_LOAD_ROWS_MAX_BYTES of Turtle, all sources together: the embedded
 * store holds a queried dataset whole in memory (about 470 MB a million triples), so this is
 * what bounds it. Checked by the action (its caller hears the 413) and again by the load.
 */
export function checkRowsLimit(
  blobs: BlobStore,
  rows: readonly LoadResource[],
  limit = byteSetting('LABLD_LOAD_ROWS_MAX_BYTES'),
): void {
  const sized = rows.map((r) => ({ name: r.name, bytes: blobs.size(r.blob_key!) }));
  const bytes = sized.reduce((n, r) => n + r.bytes, 0);
  if (bytes <= limit) return;
  const named = sized.slice(0, 5).map((r) => `${r.name} ${size(r.bytes)}`);
  if (sized.length > 5) named.push(`${sized.length - 5} more`);
  throw tooLarge(
    `rows: the rows of this dataset are ${size(bytes)} of Turtle (${named.join(', ')}), more than ` +
      `LABLD_LOAD_ROWS_MAX_BYTES (${size(limit)}) lets one dataset load; nothing was loaded. ` +
      'Load without the rows, or ask the operator to raise LABLD_LOAD_ROWS_MAX_BYTES',
    'rows',
  );
}

export interface LoadOutcome {
  /** The graphs loaded, with their triples; `rows`: a source's rows (describe's graph). */
  loaded: { resource_id: string; graph: string; triples: number; rows: boolean }[];
  /** Resources that could not be loaded (invalid Turtle): the others still were. */
  failed: { resource_id: string; error: string }[];
  dropped: string[];
  /** The endpoint resource's id; undefined when nothing was done (a sync of an unloaded dataset). */
  endpoint: string | undefined;
  /** Whether the rows were to be loaded. */
  rows: boolean;
}

const NOTHING: LoadOutcome = { loaded: [], failed: [], dropped: [], endpoint: undefined, rows: false };

/**
 * Brings the dataset's graphs in step with its resources. A deleted dataset loses its graphs;
 * `sync` leaves a dataset that was never loaded (no graphs, no endpoint resource) alone.
 * `rows` undefined: the rows stay in if some source's rows are loaded now (a sync, an autoload).
 */
export async function loadDataset(
  deps: LoadDeps,
  datasetId: string,
  reason: LoadReason,
  rows?: boolean,
): Promise<LoadOutcome> {
  const dataset = await deps.store.getDataset(datasetId);
  if (!dataset) {
    await deps.tripleStore.dropDataset(datasetId);
    return NOTHING;
  }
  const resources = await deps.store.listResources(dataset.id);
  const endpoint = resources.find(isEndpoint);
  const before = await deps.tripleStore.graphs(dataset.id);
  if (reason === 'sync' && before.length === 0 && endpoint === undefined) return NOTHING;

  const withRows =
    rows ?? resources.filter(isRows).some((r) => before.includes(downloadUrl(deps.siteUrl, r)));
  const chosen = loadableResources(resources, withRows);
  // Before anything changes: a refused load leaves the store as it was.
  checkRowsLimit(deps.blobs, chosen.filter(isRows));
  const outcome: LoadOutcome = { loaded: [], failed: [], dropped: [], endpoint: undefined, rows: withRows };
  const wanted = new Set<string>();
  for (const resource of chosen) {
    // The graph's name is the resource's download URL, as the original named it.
    const graph = downloadUrl(deps.siteUrl, resource);
    wanted.add(graph);
    try {
      const { triples } = await deps.tripleStore.replaceGraph(dataset.id, graph, {
        format: 'text/turtle',
        body: deps.blobs.open(resource.blob_key!),
        baseIri: graph,
      });
      outcome.loaded.push({ resource_id: resource.id, graph, triples, rows: isRows(resource) });
    } catch (error) {
      // One bad document does not keep the others out (the original skipped it too).
      if (!isDomainError(error)) throw error;
      outcome.failed.push({ resource_id: resource.id, error: error.message });
      wanted.delete(graph);
    }
  }
  for (const graph of before) {
    if (wanted.has(graph)) continue;
    await deps.tripleStore.dropGraph(dataset.id, graph);
    outcome.dropped.push(graph);
  }
  outcome.endpoint = (await registerEndpoint(deps, dataset.id, endpoint)).id;
  return outcome;
}

async function registerEndpoint(deps: LoadDeps, datasetId: string, existing: LoadResource | undefined) {
  const fields: EndpointFields = {
    name: ENDPOINT_NAME,
    format: ENDPOINT_FORMAT,
    url: endpointUrl(deps.siteUrl, datasetId),
    url_type: 'link',
    mimetype: 'application/sparql-results+json',
    description: 'SPARQL 1.1 endpoint of this dataset: its loaded graphs, the default graph their union',
    wasGeneratedBy: 'labld load-triplestore',
  };
  const mine = existing
    ? await deps.store.updateResource(existing.id, fields)
    : await deps.store.createResource(datasetId, fields);
  // Loads of one dataset run one after the other (the load topic's key), except when a load
  // handed to another process in a rebalance overlaps the one still running: both may find no
  // endpoint and create one (seen in the stack test). Whoever then sees two keeps the first by
  // position and id, the same one whatever the order, and removes the others.
  const [kept, ...extra] = (await deps.store.listResources(datasetId))
    .filter(isEndpoint)
    .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
  for (const other of extra) {
    await deps.store.deleteResource(other.id).catch((error: unknown) => {
      if (!(isDomainError(error) && error.kind === 'not-found')) throw error; // the other load's doing
    });
  }
  return kept ?? mine;
}

function isEndpoint(r: LoadResource): boolean {
  return r.name === ENDPOINT_NAME && r.format === ENDPOINT_FORMAT;
}
