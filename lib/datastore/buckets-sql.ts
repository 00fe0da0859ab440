// The rows of two numeric columns reduced to x-buckets in the database (for plots,
// lib/datastore/plot.ts): the x range cut into `count` equal slices, and per slice with rows in
// it the count, the x range and the y range. One statement, two passes over the table (the
// range, then one grouping): a million rows never leave the database. Same SQL text for SQLite
// and PostgreSQL but for rounding down (SQLite's CAST truncates, which for the non-negative
// slice position is rounding down; PostgreSQL's CAST rounds, so floor()).
import type { Bucketed } from './plot.ts';
import type { SqlClient, SqlDialect } from './sql.ts';

export interface BucketQuery {
  /** The table, quoted and qualified. */
  table: string;
  /** The x and y columns (our own names, `c1…cN`). */
  x: string;
  y: string;
  count: number;
}

export async function bucketRows(client: SqlClient, dialect: SqlDialect, q: BucketQuery): Promise<Bucketed> {
  if (!Number.isInteger(q.count) || q.count < 1) throw new Error(`bucket count ${q.count}`);
  const last = q.count - 1;
  const position = `(r.x - e.lo) * 1.0 * ${q.count} / (e.hi - e.lo)`;
  const down = dialect.name === 'postgres' ? `floor(${position})` : `CAST(${position} AS INTEGER)`;
  // x = hi is the last slice's right edge; rounding may put x just below it one slice further.
  const slice = `CASE WHEN r.x >= e.hi THEN ${last} ELSE ${down} END`;
  const sql = `WITH r AS (SELECT ${q.x} AS x, ${q.y} AS y FROM ${q.table} WHERE ${q.x} IS NOT NULL AND ${q.y} IS NOT NULL),
    e AS (SELECT min(x) AS lo, max(x) AS hi FROM r)
    SELECT b, count(*) AS n, min(x) AS x0, max(x) AS x1, min(y) AS y0, max(y) AS y1
    FROM (SELECT CASE WHEN s > ${last} THEN ${last} ELSE s END AS b, x, y
          FROM (SELECT ${slice} AS s, r.x AS x, r.y AS y FROM r, e) sliced) clamped
    GROUP BY b ORDER BY b`;
  const found = await client.query(sql);
  const buckets = found.map((row) => ({
    n: Number(row.n),
    x0: Number(row.x0),
    x1: Number(row.x1),
    y0: Number(row.y0),
    y1: Number(row.y1),
  }));
  return { rows: buckets.reduce((sum, b) => sum + b.n, 0), buckets };
}
