// datastore_search's `records_format` (CKAN 2.10): `objects` (a list of objects, the default),
// `lists` (a list of lists, in the order of `fields`), or `csv` / `tsv` (one text of the rows,
// no header; each row ends with a newline, so that pages read one after another concatenate).
import type { DatastoreRecord, Value } from './contract.ts';

export const RECORDS_FORMATS = ['objects', 'lists', 'csv', 'tsv'] as const;
export type RecordsFormat = (typeof RECORDS_FORMATS)[number];

/** A value as a delimited cell: empty for null, quoted when it holds the delimiter, a quote or a line break. */
function cell(value: Value, delimiter: string): string {
  if (value === null) return '';
  const text = String(value);
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function formatRecords(
  records: DatastoreRecord[],
  ids: string[],
  format: RecordsFormat,
): DatastoreRecord[] | Value[][] | string {
  if (format === 'objects') return records;
  const rows = records.map((record) => ids.map((id) => record[id] ?? null));
  if (format === 'lists') return rows;
  const delimiter = format === 'csv' ? ',' : '\t';
  return rows.map((row) => `${row.map((v) => cell(v, delimiter)).join(delimiter)}\n`).join('');
}
