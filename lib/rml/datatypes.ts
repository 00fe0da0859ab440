// Lexical-space checks for the XSD datatypes RML-Core calls validatable: a literal whose
// lexical form is not in its datatype's lexical space is ill-typed (a data error in RML-Core;
// legacy engines drop the triple instead).
import { XSD } from './vocab.ts';

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
  long: integerIn(-(2n ** 63n), 2n ** 63n - 1n),
  int: integerIn(-(2n ** 31n), 2n ** 31n - 1n),
  short: integerIn(-32768n, 32767n),
  byte: integerIn(-128n, 127n),
  nonNegativeInteger: integerIn(0n, null),
  positiveInteger: integerIn(1n, null),
  nonPositiveInteger: integerIn(null, 0n),
  negativeInteger: integerIn(null, -1n),
  unsignedLong: integerIn(0n, 2n ** 64n - 1n),
  unsignedInt: integerIn(0n, 2n ** 32n - 1n),
  unsignedShort: integerIn(0n, 65535n),
  unsignedByte: integerIn(0n, 255n),
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
