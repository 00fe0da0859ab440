// datastore_search_sql: one SELECT over datastore tables named by their resource ids, as
// CKAN's. Read-only by construction: sql-guard.ts admits one allow-listed SELECT and names its
// tables; each must be a resource the caller may read (else 404 as a hidden dataset, or 403);
// the store runs what the parser rendered in a read-only transaction (PostgreSQL) or a
// query_only connection with an authorizer (SQLite), with a time limit and CKAN's row cap.
import { guardSelect } from '../../datastore/sql-guard.ts';
import { intSetting } from '../../process/config.ts';
import { resourceFor, type Action } from './context.ts';
import { required } from './params.ts';

/**
 * CKAN's `ckan.datastore.search.rows_max` (default 32000): more rows are cut off with
 * `records_truncated`, as CKAN does. And the statement's time (CKAN leaves it to PostgreSQL's
 * statement_timeout; labld's default: 10 s).
 */
export const sqlLimits = () => ({
  rowsMax: intSetting('LABLD_DATASTORE_ROWS_MAX'),
  timeoutMs: intSetting('LABLD_DATASTORE_SQL_TIMEOUT_MS'),
});

const datastoreSearchSql: Action = async (deps, viewer, params) => {
  const sql = required(params, 'sql');
  const query = guardSelect(sql);
  for (const id of query.resourceIds) await resourceFor(deps.store, viewer, 'datastore.read', id, 'sql');
  const result = await deps.datastore.sql(query, sqlLimits());
  return {
    sql,
    fields: result.fields,
    records: result.records,
    ...(result.records_truncated ? { records_truncated: true } : {}),
  };
};

export const datastoreSqlActions = { datastore_search_sql: datastoreSearchSql };
