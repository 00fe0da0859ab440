// The x-buckets of lib/datastore/buckets-sql.ts computed plainly from the rows, to check the
// SQL against (and the envelope's properties on): the x range cut into `count` equal slices, a
// row in slice floor((x - lo) · count / (hi - lo)), the right edge in the last one.
import type { Bucket } from '../../lib/datastore/plot.ts';

export function referenceBuckets(
  rows: readonly (readonly [number | null, number | null])[],
  count: number,
): Bucket[] {
  const both = rows.filter((r): r is [number, number] => r[0] !== null && r[1] !== null);
  if (both.length === 0) return [];
  const lo = Math.min(...both.map((r) => r[0]));
  const hi = Math.max(...both.map((r) => r[0]));
  const slices = new Map<number, Bucket>();
  for (const [x, y] of both) {
    const b = x >= hi ? count - 1 : Math.min(count - 1, Math.floor(((x - lo) * 1.0 * count) / (hi - lo)));
    const s = slices.get(b);
    if (!s) slices.set(b, { n: 1, x0: x, x1: x, y0: y, y1: y });
    else {
      s.n += 1;
      s.x0 = Math.min(s.x0, x);
      s.x1 = Math.max(s.x1, x);
      s.y0 = Math.min(s.y0, y);
      s.y1 = Math.max(s.y1, y);
    }
  }
  return [...slices.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
}
