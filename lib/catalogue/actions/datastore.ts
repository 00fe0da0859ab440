// datastore_* actions: CKAN's DataStore API over labld's datastore. A table belongs to a
// resource, so the resource's dataset is the target `demand` decides on. Column names, filters
// and sort keys reach SQL only as parameters or quoted identifiers (lib/datastore), and a name
// that is not a column of the table is refused naming the parameter.
import { conflict, invalid, isDomainError } from '../../process/errors.ts';
import {
  MAX_LIMIT,
  DEFAULT_LIMIT,
  UPSERT_METHODS,
  type Field,
  type FieldType,
  type InputRecord,
  type SearchParams,
  type UpsertMethod,
} from '../../datastore/contract.ts';
import { formatRecords, RECORDS_FORMATS, type RecordsFormat } from '../../datastore/records-format.ts';
import { resourceFor, type Action, type ActionDeps } from './context.ts';
import type { Viewer } from '../auth/actor.ts';
import { bool, integer, list, object, optional, required, type Params } from './params.ts';

/** The resource whose table the call is about: CKAN's `resource_id` (datastore_search also takes `id`). */
const tableOf = (
  deps: ActionDeps,
  viewer: Viewer,
  params: Params,
  action: 'datastore.read' | 'datastore.write',
) => resourceFor(deps.store, viewer, action, required(params, 'resource_id', 'id'), 'resource_id');

/** datastore_create can also make the resource (`resource: {...}`); labld wants it made first. */
function refuseNewResource(params: Params): void {
  if (params.resource !== undefined && params.resource !== null) {
    throw invalid('create the resource with resource_create first, then give its resource_id', 'resource');
  }
}

/**
 * A table the automation chain's import step is filling (queued or running) is the import's:
 * it drops the table and makes it anew from the CSV, so a write now would race it and be lost
 * or half-kept, whichever ran last. Refused (409, as CKAN's validation errors) naming the
 * resource; once the import is done or failed the table takes writes again. The check and
 * the write are in two databases, so a run queued in between is not caught: this closes the
 * window users hit (a table written while the import is under way), not every interleaving.
 */
async function refuseWhileImporting(deps: ActionDeps, resourceId: string): Promise<void> {
  const status = (await deps.store.getStepStatus(resourceId, 'import'))?.status;
  if (status?.state === 'queued' || status?.state === 'running') {
    throw conflict(
      `resource ${resourceId}: the automation chain's import step fills this table from the resource's CSV (import ${status.state}); write to it when the import is done`,
      'resource_id',
    );
  }
}

/** One of `choices` (the first when absent), named in the error. */
function oneOf<T extends string>(params: Params, name: string, choices: readonly T[]): T {
  const value = optional(params, name) ?? choices[0];
  if (!(choices as readonly string[]).includes(value as string))
    throw invalid(`must be one of ${choices.join(', ')} (got ${JSON.stringify(value)})`, name);
  return value as T;
}

/** CKAN's `primary_key`: a field id, comma-separated ids, or a list of them. */
function primaryKey(params: Params): string[] | undefined {
  const value = params.primary_key;
  if (value === undefined || value === null) return undefined;
  const ids = typeof value === 'string' ? value.split(',').map((id) => id.trim()) : value;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id === ''))
    throw invalid('a field id, or a list of field ids', 'primary_key');
  return ids as string[];
}

const datastoreCreate: Action = async (deps, viewer, params) => {
  refuseNewResource(params);
  const { resource } = await tableOf(deps, viewer, params, 'datastore.write');
  await refuseWhileImporting(deps, resource.id);
  const fields = list(params, 'fields') as Field[] | undefined;
  const records = (list(params, 'records') ?? []) as InputRecord[];
  const key = primaryKey(params);
  let info;
  if (fields !== undefined) {
    info = await deps.datastore.create(resource.id, fields, records, key);
  } else {
    // CKAN: fields may be left out when the table exists (records are appended to it).
    info = await deps.datastore.info(resource.id).catch((error: unknown) => {
      if (!(isDomainError(error) && error.kind === 'not-found')) throw error;
      throw invalid('Missing value: the resource has no table yet, so its fields are needed', 'fields');
    });
    if (key !== undefined) throw invalid('give the fields with the primary key', 'fields');
    if (records.length > 0) {
      // Records of a table with a key are checked against it, as datastore_upsert's insert.
      await deps.datastore.upsert(resource.id, records, 'insert');
      info = await deps.datastore.info(resource.id);
    }
  }
  // CKAN's answer is the request without its records (they may be megabytes).
  return {
    resource_id: resource.id,
    fields: info.fields,
    ...(info.primary_key.length > 0 ? { primary_key: info.primary_key } : {}),
    method: 'insert',
    total: info.count,
  };
};

/** datastore_upsert: CKAN's methods (default `upsert`), by the table's primary key or `_id`. */
const datastoreUpsert: Action = async (deps, viewer, params) => {
  const { resource } = await tableOf(deps, viewer, params, 'datastore.write');
  await refuseWhileImporting(deps, resource.id);
  const method = oneOf<UpsertMethod>(params, 'method', [
    'upsert',
    ...UPSERT_METHODS.filter((m) => m !== 'upsert'),
  ]);
  if (bool(params, 'dry_run') === true) throw invalid('dry runs are not supported', 'dry_run');
  const records = list(params, 'records') ?? [];
  await deps.datastore.upsert(resource.id, records, method);
  return { resource_id: resource.id, method, records };
};

/** Type names as PostgreSQL gives them for CKAN's types (datastore_info's `native_type`). */
const NATIVE: Record<FieldType, string> = {
  text: 'text',
  numeric: 'numeric',
  int: 'int8',
  float: 'float8',
  bool: 'bool',
  date: 'date',
  timestamp: 'timestamp',
};

/** datastore_info as CKAN 2.11 answers it: `meta` of the table, its `fields` with their `schema`. */
const datastoreInfo: Action = async (deps, viewer, params) => {
  const id = required(params, 'id', 'resource_id');
  const { resource } = await resourceFor(deps.store, viewer, 'datastore.read', id, 'id');
  const info = await deps.datastore.info(resource.id);
  const key = new Set(info.primary_key);
  return {
    meta: { id: resource.id, count: info.count, table_type: 'BASE TABLE', aliases: [] },
    fields: info.fields.map((f) => ({
      id: f.id,
      type: f.type,
      ...(f.info ? { info: f.info } : {}),
      schema: {
        native_type: NATIVE[f.type],
        notnull: false,
        is_index: key.has(f.id),
        uniquekey: key.has(f.id),
      },
    })),
    ...(info.primary_key.length > 0 ? { primary_key: info.primary_key } : {}),
  };
};

const datastoreDelete: Action = async (deps, viewer, params) => {
  const { resource } = await tableOf(deps, viewer, params, 'datastore.write');
  await refuseWhileImporting(deps, resource.id);
  const filters = object(params, 'filters');
  const deleted = await deps.datastore.delete(resource.id, filters);
  return { resource_id: resource.id, ...(filters ? { filters } : {}), deleted };
};

/** `q` is text, or an object of column: text (also as JSON text from a query string). */
function query(params: Params): SearchParams['q'] {
  const q = params.q;
  if (typeof q === 'string' && q.trim().startsWith('{')) return object(params, 'q') as Record<string, string>;
  if (q !== null && typeof q === 'object' && !Array.isArray(q)) return q as Record<string, string>;
  return optional(params, 'q');
}

/** The search again with another offset: CKAN's `_links`, paths relative to the site. */
function link(params: Record<string, unknown>, offset?: number): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || key === 'offset') continue;
    search.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  if (offset !== undefined) search.set('offset', String(offset));
  return `/api/3/action/datastore_search?${search.toString()}`;
}

const datastoreSearch: Action = async (deps, viewer, params) => {
  const { resource } = await tableOf(deps, viewer, params, 'datastore.read');
  const distinct = bool(params, 'distinct') ?? false;
  const format = oneOf<RecordsFormat>(params, 'records_format', RECORDS_FORMATS);
  const limit = integer(params, 'limit', DEFAULT_LIMIT, 0, MAX_LIMIT);
  const offset = integer(params, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const includeTotal = bool(params, 'include_total') ?? true;
  const filters = object(params, 'filters');
  const q = query(params);
  const sort = optional(params, 'sort');
  const fields = Array.isArray(params.fields) ? (params.fields as string[]) : optional(params, 'fields');
  const found = await deps.datastore.search({
    resource_id: resource.id,
    limit,
    offset,
    include_total: includeTotal,
    distinct,
    ...(filters ? { filters } : {}),
    ...(q !== undefined ? { q } : {}),
    ...(sort !== undefined ? { sort } : {}),
    ...(fields !== undefined ? { fields } : {}),
  });
  const asked = {
    resource_id: resource.id,
    filters,
    q,
    sort,
    fields,
    limit: String(limit),
    ...(distinct ? { distinct: 'true' } : {}),
    ...(format !== 'objects' ? { records_format: format } : {}),
  };
  return {
    resource_id: resource.id,
    fields: found.fields,
    records: formatRecords(
      found.records,
      found.fields.map((f) => f.id),
      format,
    ),
    ...(found.total !== undefined ? { total: found.total, total_was_estimated: false } : {}),
    limit: found.limit,
    offset: found.offset,
    include_total: includeTotal,
    records_format: format,
    ...(distinct ? { distinct } : {}),
    ...(filters ? { filters } : {}),
    ...(q !== undefined ? { q } : {}),
    ...(sort !== undefined ? { sort } : {}),
    _links: { start: link(asked), next: link(asked, offset + limit) },
  };
};

export const datastoreActions = {
  datastore_create: datastoreCreate,
  datastore_delete: datastoreDelete,
  datastore_search: datastoreSearch,
  datastore_info: datastoreInfo,
  datastore_upsert: datastoreUpsert,
};
