// Which columns of a data part write every sampled value as a quoted number, and so how their
// numbers are written: Bluehill quotes `"0,27211"` (decimal comma) in a Polish export and
// `"9,286.44727"` (thousands grouped) in an English one. The column's CSVW number format says
// so (lib/csvw/column-format.ts), and the import and describe read the cells by it.
import { numberDatatype, type NumberStyle } from '../csvw/column-format.ts';
import { splitTyped, type Sep } from './separators.ts';
import { pyStrip, QUOTED_DECIMAL_COMMA, QUOTED_DECIMAL_POINT } from './value-type.ts';

const DECIMAL_COMMA = { decimalChar: ',', groupChar: null };
/** A column of quoted decimal-point numbers: Bluehill quotes them because it groups thousands. */
const GROUPED_THOUSANDS = { decimalChar: '.', groupChar: ',' };

export class QuotedNumbers {
  /** Per column: every value so far a quoted decimal-comma number. */
  private readonly comma: boolean[] = [];
  /** Per column: every value so far a quoted decimal-point number. */
  private readonly point: boolean[] = [];
  private rows = 0;

  /** One sampled data line of `width` columns. */
  add(line: string, sep: Sep, width: number): void {
    const raw = splitTyped(line, sep).map((field) => pyStrip(field));
    for (let col = 0; col < width; col++) {
      const field = raw[col] ?? '';
      const comma = QUOTED_DECIMAL_COMMA.test(field);
      const point = QUOTED_DECIMAL_POINT.test(field);
      if (this.rows === 0) {
        this.comma[col] = comma;
        this.point[col] = point;
      } else if (field !== '') {
        if (!comma) this.comma[col] = false;
        if (!point) this.point[col] = false;
      }
    }
    this.rows++;
  }

  /** The CSVW datatype of a double column whose numbers were all quoted, else nothing. */
  datatype(col: number): { datatype?: ReturnType<typeof numberDatatype> } {
    const style: NumberStyle =
      this.comma[col] === true ? DECIMAL_COMMA : this.point[col] === true ? GROUPED_THOUSANDS : null;
    return style ? { datatype: numberDatatype(style) } : {};
  }
}
