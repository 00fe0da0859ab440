// What the catalogue's pages ask for: view models, by the request's parameters. The real source
// (catalogue store, datastore, auth) is wired next; tests serve the pages from a test double.
import { invalid } from '../../lib/process/errors.ts';
import type {
  DatasetListView,
  DatasetView,
  GroupView,
  PageContext,
  ResourcePageView,
  TokenView,
  UploadView,
} from './views.ts';
import { FILTER_PREFIX } from './pages/resource.ts';

/** Sort, filter and page of a table preview, as asked in the query string. */
export interface TableQuery {
  sort?: { column: string; order: 'asc' | 'desc' };
  /** Column name → non-empty filter text. */
  filters: Record<string, string>;
  page: number;
}

export interface UploadedResource {
  /** The file on disk (the kit removes it after the answer unless the source keeps it). */
  path: string;
  filename: string;
  size: number;
  mimetype: string;
  description?: string;
}

export interface CatalogueSource {
  /** Who is asking; `cookie` is the raw Cookie header. */
  context(cookie: string | undefined): Promise<PageContext> | PageContext;
  datasets(query: string, page: number): Promise<DatasetListView> | DatasetListView;
  /** Throws not-found for a dataset the viewer cannot see. */
  dataset(name: string): Promise<DatasetView> | DatasetView;
  upload(name: string): Promise<UploadView> | UploadView;
  /** Stores an upload as a new resource of the dataset; answers the new resource's id. */
  addResource(name: string, file: UploadedResource): Promise<string> | string;
  /** Throws invalid naming the parameter for an unknown sort or filter column. */
  resource(name: string, id: string, table: TableQuery): Promise<ResourcePageView> | ResourcePageView;
  /** The bytes of a resource. */
  download(name: string, id: string): Promise<{ path: string; filename: string; contentType: string }>;
  group(name: string): Promise<GroupView> | GroupView;
  tokens(): Promise<TokenView> | TokenView;
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

export function parseTableQuery(raw: Raw): TableQuery {
  const table: TableQuery = { filters: {}, page: parsePage(raw) };
  const sort = one(raw, 'sort');
  const order = one(raw, 'order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw invalid('order: must be asc or desc', 'order');
  if (sort !== undefined && sort !== '') table.sort = { column: sort, order };
  for (const key of Object.keys(raw)) {
    if (!key.startsWith(FILTER_PREFIX)) continue;
    const text = one(raw, key)?.trim() ?? '';
    if (text !== '') table.filters[key.slice(FILTER_PREFIX.length)] = text;
  }
  return table;
}
