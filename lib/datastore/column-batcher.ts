// The import's rows gathered column by column into batches of `size` rows: a numeric column is
// a Float64Array (moved to the inserting thread without a copy) until a value of the batch is
// not a number (a blank cell, null), when it becomes a list for the rest of the batch.
import type { NumberStyle } from '../csvw/column-format.ts';
import { invalid } from '../process/errors.ts';
import type { ColumnBatch, Field } from './contract.ts';
import { isNumericType } from './values.ts';

export class ColumnBatcher {
  readonly #numeric: boolean[];
  readonly #size: number;
  #packed: boolean[];
  #columns: ColumnBatch['columns'];
  #rows = 0;

  constructor(fields: readonly Field[], size: number) {
    this.#numeric = fields.map((f) => isNumericType(f.type));
    this.#size = size;
    this.#packed = this.#numeric.slice();
    this.#columns = this.#empty();
  }

  #empty(): ColumnBatch['columns'] {
    const size = this.#size;
    return this.#numeric.map((isNumeric) => (isNumeric ? new Float64Array(size) : new Array<unknown>(size)));
  }

  /** Column `i`'s value in the current row. */
  put(i: number, value: unknown): void {
    if (this.#packed[i] && typeof value !== 'number') {
      this.#columns[i] = Array.from((this.#columns[i] as Float64Array).subarray(0, this.#rows));
      this.#packed[i] = false;
    }
    (this.#columns[i] as unknown[])[this.#rows] = value;
  }

  /** Closes the current row: the batch when it is full. */
  endRow(): ColumnBatch | undefined {
    if (++this.#rows < this.#size) return undefined;
    const batch = { rows: this.#rows, columns: this.#columns };
    this.#columns = this.#empty();
    this.#packed = this.#numeric.slice();
    this.#rows = 0;
    return batch;
  }

  /** The rows of a batch not yet full, if any. */
  rest(): ColumnBatch | undefined {
    if (this.#rows === 0) return undefined;
    const n = this.#rows;
    for (const column of this.#columns) if (Array.isArray(column)) column.length = n;
    this.#rows = 0;
    return { rows: n, columns: this.#columns };
  }
}

/** The refusal of a cell its column's type cannot read (422 naming csv_url). */
export function unreadable(
  fields: readonly Field[],
  styles: readonly NumberStyle[],
  i: number,
  text: string,
  sourceNumber: number,
  csvUrl: string,
): Error {
  const field = fields[i] as Field;
  return invalid(
    `csv_url: line ${sourceNumber} of ${csvUrl}: ${JSON.stringify(text)} in column ${JSON.stringify(field.id)} is not ${field.type}${styleNote(styles[i] ?? null)}`,
    'csv_url',
  );
}

/** How the descriptor said the column writes numbers, for the refusal. */
function styleNote(style: NumberStyle): string {
  if (style === null) return '';
  const group = style.groupChar === null ? '' : ` and ${JSON.stringify(style.groupChar)} between thousands`;
  return ` (the descriptor's format: decimal ${JSON.stringify(style.decimalChar)}${group})`;
}
