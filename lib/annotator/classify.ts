// Meta or data? The original's rule for one part (research §1.4 step C), decided on the
// type vectors of at most its first 30 lines.
import type { Sep } from './separators.ts';
import { splitTyped } from './separators.ts';
import { classOf } from './value-type.ts';

export const CLASSIFY_SAMPLE = 30;

export interface Classification {
  kind: 'meta' | 'data';
  /** Row 0 all text, ≥2 columns, and some non-text cell below and right of it. */
  hasHeaderRow: boolean;
}

function typeVector(line: string, sep: Sep): string[] {
  return splitTyped(line, sep).map(classOf);
}

export function classify(lines: readonly string[], sep: Sep, partLength: number): Classification {
  if (partLength === 1 || sep === ':') return { kind: 'meta', hasHeaderRow: false };
  const rows = lines.slice(0, CLASSIFY_SAMPLE).map((line) => typeVector(line, sep));
  const first = rows[0] ?? [];
  const sameAsFirst = rows.every((row) => row.length === first.length && row.every((t, i) => t === first[i]));
  const firstColumnText = rows.every((row) => row[0] === 'TEXT');
  let headerRows = 0;
  while (headerRows < rows.length && (rows[headerRows] as string[]).every((t) => t === 'TEXT')) headerRows++;
  const dataRows = rows.slice(headerRows);
  const columnsUniform =
    dataRows.length > 0 &&
    first.every((_, col) => dataRows.every((row) => row[col] === (dataRows[0] as string[])[col]));
  const hasHeaderRow =
    rows.length >= 2 &&
    first.length >= 2 &&
    first.every((t) => t === 'TEXT') &&
    rows.slice(1).some((row) => row.slice(1).some((t) => t !== 'TEXT'));
  const meta = (sameAsFirst && firstColumnText) || (firstColumnText && !columnsUniform && !hasHeaderRow);
  return { kind: meta ? 'meta' : 'data', hasHeaderRow };
}
