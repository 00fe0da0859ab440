// The datastore: a CSV resource's rows in a table of the database, typed by its CSVW
// descriptor, queried like CKAN's `datastore_search` (paging, sorting on any column, per-column
// filters, full-text `q`, the total). Cut along CKAN's concepts (resource, field, record,
// filter, sort) so that the Action API passes its parameters through; no SQL here.
import type { Bucketed } from './plot.ts';
import type { GuardedSelect } from './sql-guard.ts';

/** CKAN's field types that labld stores (CKAN's aliases are read by `fieldType`). */
export const FIELD_TYPES = ['text', 'numeric', 'int', 'float', 'bool', 'date', 'timestamp'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface Field {
  /** The column's name as the CSV header has it: any non-empty string not starting with `_`. */
  id: string;
  type: FieldType;
  /** CKAN's data dictionary entry: here the column's other titles and its QUDT unit IRI. */
  info?: { label?: string; unit?: string };
}

/** A cell: numbers for the numeric types, `true`/`false`, ISO text for dates and times. */
export type Value = string | number | boolean | null;

/** A row as CKAN returns it: `_id` (1, 2, … in insertion order) and a value per field. */
export type DatastoreRecord = Record<string, Value>;

/**
 * A row to insert: values by field id (missing ones are null), or values in the order of the
 * fields (what the CSV import hands over: no object per row). Strings are read by the type.
 */
export type InputRecord = Record<string, unknown> | unknown[];

/**
 * Rows handed over column by column, as the import's parsing thread sends them: `rows` values
 * per column, in the order of the fields; a column of numbers only is one Float64Array (moved
 * between threads without a copy). Values are read by their field's type as records' are.
 */
export interface ColumnBatch {
  rows: number;
  columns: (Float64Array | unknown[])[];
}

/** Rows to insert: records, or columns. */
export type RowBatch = InputRecord[] | ColumnBatch;

export interface SearchParams {
  resource_id: string;
  /** Column → value (equal), values (any of them), or labld's range `{gte, lte}` (either alone). */
  filters?: Record<string, unknown>;
  /** Words that must all occur (case-insensitively) in a text column; or per column. */
  q?: string | Record<string, string>;
  /**
   * `"col asc, col2 desc"`; a name with a comma or spaces is written in double quotes. Nulls
   * count as the largest value; ties go by `_id` in the first key's direction.
   */
  sort?: string;
  /** Rows per page: default 100, at most MAX_LIMIT. */
  limit?: number;
  offset?: number;
  /** The fields returned (with `_id` if named); a list or comma-separated. Default: all. */
  fields?: string[] | string;
  /** Whether to count the matching rows (default true, as CKAN). */
  include_total?: boolean;
  /**
   * Each combination of the chosen fields' values once (CKAN's `distinct`); sorted by the sort
   * keys, which must be among the chosen fields (no `_id` tie-break unless `_id` is chosen).
   */
  distinct?: boolean;
}

export interface SearchResult {
  resource_id: string;
  fields: { id: string; type: FieldType | 'int' }[];
  records: DatastoreRecord[];
  total?: number;
  limit: number;
  offset: number;
}

/** datastore_upsert's methods (CKAN's). */
export const UPSERT_METHODS = ['insert', 'upsert', 'update'] as const;
export type UpsertMethod = (typeof UPSERT_METHODS)[number];

export interface DatastoreInfo {
  resource_id: string;
  fields: Field[];
  /** The fields whose values name a row (CKAN's `primary_key`); empty when none. */
  primary_key: string[];
  /** Rows in the table. */
  count: number;
}

/** datastore_search_sql's bounds: rows returned (CKAN's `ckan.datastore.search.rows_max`) and time. */
export interface SqlLimits {
  rowsMax: number;
  timeoutMs: number;
}

/** A SELECT's answer: its columns (named and typed as the database gives them) and rows. */
export interface SqlResult {
  fields: { id: string; type: FieldType }[];
  records: DatastoreRecord[];
  /** More rows than `rowsMax` matched: the first `rowsMax` are given (CKAN's `records_truncated`). */
  records_truncated: boolean;
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 32000;

export interface Datastore {
  /**
   * A table for the resource with these fields, and its first records. Creating it again with
   * the same fields appends the records (as CKAN's datastore_create); other fields: conflict.
   */
  create(
    resourceId: string,
    fields: Field[],
    records?: InputRecord[],
    primaryKey?: string[],
  ): Promise<DatastoreInfo>;
  /**
   * Records by `method` (upsert-sql.ts): inserted, updated by their primary key or `_id`, or
   * either; all or nothing. Returns the number of records.
   */
  upsert(resourceId: string, records: unknown[], method: UpsertMethod): Promise<number>;
  /**
   * Appends rows batch by batch (a streaming import never holds the file); all or nothing.
   * Returns the number of rows inserted.
   */
  insert(resourceId: string, batches: AsyncIterable<RowBatch> | Iterable<RowBatch>): Promise<number>;
  /** Without filters the whole table; with them, the matching rows. Returns rows deleted. */
  delete(resourceId: string, filters?: Record<string, unknown>): Promise<number>;
  search(params: SearchParams): Promise<SearchResult>;
  /**
   * Makes the indexes that the preview's sorts and filters read (of its first columns), which a
   * search would otherwise make at its first use: run after an import, so that no page waits
   * seconds for one.
   */
  indexForPreview(resourceId: string): Promise<void>;
  info(resourceId: string): Promise<DatastoreInfo>;
  /**
   * A statement admitted by `guardSelect`, over the tables of its resource ids (each named by
   * its id, its columns by the fields' ids), run read-only within `limits`.
   */
  sql(query: GuardedSelect, limits: SqlLimits): Promise<SqlResult>;
  /**
   * The rows with both fields (numeric) reduced to `count` equal slices of the x range, for a
   * plot (lib/datastore/plot.ts); slices without rows are left out.
   */
  buckets(resourceId: string, x: string, y: string, count: number): Promise<Bucketed>;
  /** Throws when the database cannot answer (for /readyz). */
  ready(): Promise<void>;
  close(): Promise<void>;
}
