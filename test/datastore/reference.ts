// A plain in-memory datastore_search, the property test's reference: filter, q, sort, page,
// written out simply (numbers compare as numbers, text by code points, nulls last ascending,
// ties in the first key's direction).
import type { DatastoreRecord, Field, SearchParams, Value } from '../../lib/datastore/contract.ts';

function compare(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'string' && typeof b === 'string') {
    const [x, y] = [
      [...a].map((c) => c.codePointAt(0) as number),
      [...b].map((c) => c.codePointAt(0) as number),
    ];
    for (let k = 0; k < Math.min(x.length, y.length); k++)
      if (x[k] !== y[k]) return (x[k] as number) - (y[k] as number);
    return x.length - y.length;
  }
  return Number(a) - Number(b);
}

/** Case-insensitive for ASCII letters only, as both databases' LIKE/ILIKE on our test data. */
const fold = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

export function referenceSearch(
  rows: DatastoreRecord[],
  fields: Field[],
  params: SearchParams,
): { records: DatastoreRecord[]; total: number } {
  let matching = rows.filter((row) =>
    Object.entries(params.filters ?? {}).every(([id, wanted]) =>
      (Array.isArray(wanted) ? wanted : [wanted]).some((value) => row[id] === value),
    ),
  );
  if (typeof params.q === 'string') {
    const texts = fields.filter((f) => f.type === 'text').map((f) => f.id);
    const words = params.q.split(/\s+/).filter(Boolean);
    matching = matching.filter((row) =>
      words.every((word) =>
        texts.some((id) => typeof row[id] === 'string' && fold(row[id] as string).includes(fold(word))),
      ),
    );
  }
  const keys = (params.sort ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean)
    .map((key) => {
      const [id, direction] = key.split(/\s+/);
      return { id: id as string, sign: direction === 'desc' ? -1 : 1 };
    });
  if (!keys.some((k) => k.id === '_id')) keys.push({ id: '_id', sign: keys[0]?.sign ?? 1 });
  const sorted = matching.toSorted((a, b) => {
    for (const { id, sign } of keys) {
      const order = compare(a[id] as Value, b[id] as Value);
      if (order !== 0) return sign * order;
    }
    return 0;
  });
  const offset = params.offset ?? 0;
  return { records: sorted.slice(offset, offset + (params.limit ?? 100)), total: matching.length };
}
