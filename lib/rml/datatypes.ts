// Lexical-space checks for the XSD datatypes RML-Core calls validatable: a literal whose
// lexical form is not in its datatype's lexical space is ill-typed (a data error in RML-Core;
// legacy engines drop the triple instead).
import { XSD, XSD_INTEGER_RANGES } from '../rdf/vocab.ts';

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const FLOAT = /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?INF|NaN)$/;
const TZ = '(Z|[+-]\\d{2}:\\d{2})?';
const DATE = new RegExp(`^-?\\d{4,}-\\d{2}-\\d{2}${TZ}$`);
const TIME = new RegExp(`^\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?${TZ}$`);
const DATE_TIME = new RegExp(`^-?\\d{4,}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?${TZ}$`);

const integerIn = (low: bigint | null, high: bigint | null) => (s: string) => {
  if (!INTEGER.test(s)) return false;
  const n = BigInt(s);
  return (low === null || n >= low) && (high === null || n <= high);
};

const CHECKS: Record<string, (lexical: string) => boolean> = {
  integer: (s) => INTEGER.test(s),
  ...Object.fromEntries(
    Object.entries(XSD_INTEGER_RANGES).map(([name, [low, high]]) => [name, integerIn(low, high)]),
  ),
  decimal: (s) => DECIMAL.test(s),
  double: (s) => FLOAT.test(s),
  float: (s) => FLOAT.test(s),
  boolean: (s) => s === 'true' || s === 'false' || s === '1' || s === '0',
  date: (s) => DATE.test(s),
  time: (s) => TIME.test(s),
  dateTime: (s) => DATE_TIME.test(s),
  hexBinary: (s) => /^([0-9A-Fa-f]{2})*$/.test(s),
};

/** Whether `lexical` is in the lexical space of `datatype` (unknown datatypes are not checked). */
export function isWellTyped(lexical: string, datatype: string): boolean {
  if (!datatype.startsWith(XSD)) return true;
  const check = CHECKS[datatype.slice(XSD.length)];
  return check ? check(lexical) : true;
}
