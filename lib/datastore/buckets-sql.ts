// The rows of two numeric columns reduced to x-buckets in the database (for plots,
// lib/datastore/plot.ts): the x range cut into `count` equal slices, and per slice with rows in
// it the count, the x range and the y range. Two statements, each one pass over the table (the
// range, then one grouping): a million rows never leave the database. The range is read first
// and written into the grouping's text (numbers the database gave, not a client's), which
// keeps the planner from materializing the rows for a shared subquery. Same SQL for SQLite and
// PostgreSQL but for rounding down (SQLite's CAST truncates, which for the non-negative slice
// position is rounding down; PostgreSQL's CAST rounds, so floor()).
import { invalid } from '../process/errors.ts';
import type { Bucketed } from './plot.ts';
import type { SqlClient, SqlDialect } from './sql-dialect.ts';

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
  const rows = `FROM ${q.table} WHERE ${q.x} IS NOT NULL AND ${q.y} IS NOT NULL`;
  const [range] = await client.query(`SELECT min(${q.x}) AS lo, max(${q.x}) AS hi ${rows}`);
  if (range?.lo === null || range?.lo === undefined) return { rows: 0, buckets: [] };
  const [lo, hi] = [Number(range.lo), Number(range.hi)];
  // SQLite keeps an overflowing number as infinity; no slice can be cut from it.
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    throw invalid('x: the column holds an infinite value, which cannot be plotted', 'x');
  }
  const last = q.count - 1;
  const position = `(${q.x} - ${lo}) * 1.0 * ${q.count} / (${hi} - ${lo})`;
  const down = dialect.name === 'postgres' ? `floor(${position})` : `CAST(${position} AS INTEGER)`;
  // x = hi is the last slice's right edge; rounding may put x just below it one slice further.
  const slice = lo === hi ? '0' : `CASE WHEN ${q.x} >= ${hi} THEN ${last} ELSE ${down} END`;
  const found = await client.query(
    `SELECT CASE WHEN s > ${last} THEN ${last} ELSE s END AS b, count(*) AS n, min(x) AS x0, max(x) AS x1, min(y) AS y0, max(y) AS y1
     FROM (SELECT ${slice} AS s, ${q.x} AS x, ${q.y} AS y ${rows}) sliced
     GROUP BY 1 ORDER BY 1`,
  );
  const buckets = found.map((row) => ({
    n: Number(row.n),
    x0: Number(row.x0),
    x1: Number(row.x1),
    y0: Number(row.y0),
    y1: Number(row.y1),
  }));
  return { rows: buckets.reduce((sum, b) => sum + b.n, 0), buckets };
}
