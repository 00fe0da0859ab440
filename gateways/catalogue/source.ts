// What the catalogue's pages ask for: view models, by the request's parameters and who asks. The
// real source (action-source.ts) calls the catalogue's actions over the bus with the asker's
// credential, so the pages see exactly what the Action API would show that person.
import type { Credential } from '../../lib/catalogue/auth/actor.ts';
import { invalid } from '../../lib/process/errors.ts';
import type { Sentence } from '../../lib/triplestore/builder.ts';
import type {
  DatasetListView,
  DatasetView,
  ResourcesView,
  GroupView,
  QueryPageView,
  ResourcePageView,
  TokenView,
  UploadView,
  FileViewName,
} from './views.ts';
import {
  FILTER_PREFIX,
  MAX_PREFIX,
  MIN_PREFIX,
  type TableQuery as RowsQuery,
} from '../../lib/datastore/table-query.ts';

const RANGE_PREFIXES = [MIN_PREFIX, MAX_PREFIX];
import type { AutomationView } from './pages/automation.ts';

/** A table preview's query (lib/datastore/table-query.ts), and which view of the file is shown. */
export interface TableQuery extends RowsQuery {
  /** Which view of the file (`view`): its rows, its text, its graph's subjects; default by kind. */
  view?: FileViewName;
}

export interface UploadedResource {
  /** The file on disk (the kit removes it after the answer unless `keep` takes it over). */
  path: string;
  filename: string;
  size: number;
  mimetype: string;
  /** Hex SHA-256 of the file, taken by the kit as it was written (UploadedFile.sha256). */
  sha256: string;
  description?: string;
  /** The upload form's `_idempotency`: the same form sent twice makes one resource. */
  idempotencyKey?: string;
  /** Takes the file over from the kit (it is not removed after the answer); its path. */
  keep(): string;
}

/** Who asks: the hash-only credential of the request, and the signed-in user's name. */
export interface Asker {
  credential: Credential;
  userName?: string;
}

/** What the new-dataset form sends. */
export interface NewDataset {
  name: string;
  title: string;
  notes: string;
  private: boolean;
}

type Maybe<T> = Promise<T> | T;

/** The plot a dataset page shows: a resource and two columns, from the query string. */
export interface PlotQuery {
  resource?: string;
  x?: string;
  y?: string;
}

export interface CatalogueSource {
  datasets(asker: Asker, query: string, page: number): Maybe<DatasetListView>;
  /** Throws not-found for a dataset the viewer cannot see. */
  dataset(asker: Asker, name: string, plot?: PlotQuery): Maybe<DatasetView>;
  /** Presses Load: the dataset's graphs into the triple store (editors), with its rows if asked. */
  loadTripleStore(asker: Asker, name: string, rows: boolean): Maybe<void>;
  /** A plot's points (labld_datastore_plot's answer) of a resource of the dataset. */
  plot(asker: Asker, name: string, id: string, params: Record<string, string>): Maybe<unknown>;
  /** Answers the new dataset's name. */
  createDataset(asker: Asker, fields: NewDataset): Maybe<string>;
  /** A new dataset of the asker's, put into the group (the mapping library's first shelf); its name. */
  createGroupDataset(asker: Asker, group: string, fields: NewDataset): Maybe<string>;
  upload(asker: Asker, name: string): Maybe<UploadView>;
  /** Stores an upload as a new resource of the dataset; answers the new resource's id. */
  addResource(asker: Asker, name: string, file: UploadedResource): Maybe<string>;
  /** Throws invalid naming the parameter for an unknown sort or filter column. */
  resource(asker: Asker, name: string, id: string, table: TableQuery): Maybe<ResourcePageView>;
  /** The bytes of a resource. */
  download(
    asker: Asker,
    name: string,
    id: string,
  ): Promise<{ path: string; filename: string; contentType: string }>;
  /** The dataset page's Resources section alone. */
  resources(asker: Asker, name: string): Maybe<ResourcesView>;
  /** The dataset page's Automation section alone. */
  automation(asker: Asker, name: string): Maybe<AutomationView>;
  /** Runs a failed step of a resource of the dataset again (editors). */
  retryStep(asker: Asker, name: string, resourceId: string, step: string): Maybe<void>;
  /** Replays one of the dataset's dead letters (its admins). */
  replayDeadLetter(asker: Asker, name: string, id: string): Maybe<void>;
  group(asker: Asker, name: string): Maybe<GroupView>;
  /** The asker's tokens; with `created`, the one just made (its secret shown once). */
  tokens(asker: Asker, created?: { name: string; secret: string }): Maybe<TokenView>;
  /** Makes a token for the asker; answers its secret. */
  createToken(asker: Asker, name: string): Maybe<string>;
  revokeToken(asker: Asker, id: string): Maybe<void>;
  /** The query page: YASGUI's endpoint and the builder's view of `sentence`. */
  queryPage(asker: Asker, name: string, sentence: Sentence): Maybe<QueryPageView>;
}

type Raw = Record<string, string | string[] | undefined>;

function one(raw: Raw, key: string): string | undefined {
  const value = raw[key];
  if (Array.isArray(value)) throw invalid(`${key}: given more than once`, key);
  return value;
}

/** `page`: a whole number ≥ 1, default 1. */
export function parsePage(raw: Raw): number {
  const text = one(raw, 'page');
  if (text === undefined || text === '') return 1;
  if (!/^[1-9][0-9]{0,8}$/.test(text)) throw invalid('page: must be a whole number from 1', 'page');
  return Number(text);
}

export function parsePlotQuery(raw: Raw): PlotQuery {
  const query: PlotQuery = {};
  for (const [key, param] of [
    ['resource', 'plot'],
    ['x', 'x'],
    ['y', 'y'],
  ] as const) {
    const value = one(raw, param);
    if (value !== undefined && value !== '') query[key] = value;
  }
  return query;
}

/** The plot route's parameters, each given at most once. */
export function parsePlotParams(raw: Raw): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of ['x', 'y', 'points']) {
    const value = one(raw, key);
    if (value !== undefined) params[key] = value;
  }
  return params;
}

export function parseTableQuery(raw: Raw): TableQuery {
  const table: TableQuery = { filters: {}, ranges: {}, page: parsePage(raw) };
  const view = one(raw, 'view');
  if (view === 'table' || view === 'text' || view === 'subjects') table.view = view;
  else if (view !== undefined && view !== '') throw invalid('view: must be table, text or subjects', 'view');
  const sort = one(raw, 'sort');
  const order = one(raw, 'order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw invalid('order: must be asc or desc', 'order');
  if (sort !== undefined && sort !== '') table.sort = { column: sort, order };
  const q = one(raw, 'q')?.trim() ?? '';
  if (q !== '') table.q = q;
  for (const key of Object.keys(raw)) {
    const text = () => one(raw, key)?.trim() ?? '';
    if (key.startsWith(FILTER_PREFIX)) {
      if (text() !== '') table.filters[key.slice(FILTER_PREFIX.length)] = text();
      continue;
    }
    const bound = RANGE_PREFIXES.find((prefix) => key.startsWith(prefix));
    if (bound === undefined || text() === '') continue;
    const column = key.slice(bound.length);
    table.ranges[column] = { ...table.ranges[column], [bound === MIN_PREFIX ? 'min' : 'max']: text() };
  }
  return table;
}
