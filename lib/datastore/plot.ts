// Plots of measured curves (issue 15 item 5): one numeric column over another, from a table of
// up to millions of rows, drawn from a few thousand points. The database reduces the rows to
// x-buckets (lib/datastore/buckets-sql.ts: per equal slice of the x range, the count, the x
// range and the lowest and highest y); `envelope` turns those into the line to draw. At 1000
// buckets across a plot a few hundred pixels wide a bucket is under a pixel, so drawing each
// bucket's lowest and highest y keeps every peak and dip the full curve shows.
import { invalid } from '../process/errors.ts';
import type { Field } from './contract.ts';

/** One slice of the x range with at least one row in it. */
export interface Bucket {
  /** Rows in the slice. */
  n: number;
  /** Lowest and highest x of those rows. */
  x0: number;
  x1: number;
  /** Lowest and highest y of those rows. */
  y0: number;
  y1: number;
}

/** A table's rows as buckets. */
export interface Bucketed {
  /** Rows with both an x and a y. */
  rows: number;
  buckets: Bucket[];
}

/** The line to draw: x ascending (what a plotting library wants), y beside it. */
export interface Series {
  x: number[];
  y: number[];
}

export const DEFAULT_POINTS = 2000;
export const MIN_POINTS = 10;
export const MAX_POINTS = 10_000;

/** Buckets for a line of at most `points` points (two per bucket). */
export const bucketsFor = (points: number): number => Math.floor(points / 2);

/**
 * Each bucket's lowest and highest y as two points, at the bucket's first and last x, in the
 * order that continues the line from the bucket before (rising: low then high; falling: high
 * then low), so that a monotone stretch is drawn as it is and a wiggle inside one bucket as a
 * stroke spanning its range. A bucket of one row, or of rows all at one point, is one point.
 * `buckets` must be in x order, their x ranges not overlapping (as the SQL gives them).
 */
export function envelope(buckets: readonly Bucket[]): Series {
  const x: number[] = [];
  const y: number[] = [];
  let previous: number | undefined;
  buckets.forEach((b, i) => {
    if (b.x0 === b.x1 && b.y0 === b.y1) {
      x.push(b.x0);
      y.push(b.y0);
      previous = b.y0;
      return;
    }
    let lowFirst: boolean;
    if (previous !== undefined) {
      lowFirst = Math.abs(previous - b.y0) <= Math.abs(previous - b.y1);
    } else {
      // The first bucket has no line to continue: rising towards the next one, low first.
      const next = buckets[i + 1];
      lowFirst = next === undefined || next.y0 + next.y1 >= b.y0 + b.y1;
    }
    const [first, second] = lowFirst ? [b.y0, b.y1] : [b.y1, b.y0];
    x.push(b.x0, b.x1);
    y.push(first, second);
    previous = second;
  });
  return { x, y };
}

const NUMERIC: ReadonlySet<Field['type']> = new Set(['numeric', 'int', 'float']);

/** The field a plot parameter names, which must hold numbers. */
export function plotField(fields: readonly Field[], name: unknown, param: 'x' | 'y'): Field {
  if (typeof name !== 'string' || name === '') throw invalid(`${param}: name a numeric column`, param);
  const field = fields.find((f) => f.id === name);
  if (!field)
    throw invalid(`${param}: ${JSON.stringify(name.slice(0, 200))} is not a column of this table`, param);
  if (!NUMERIC.has(field.type)) {
    throw invalid(`${param}: column ${JSON.stringify(name)} holds ${field.type}, not numbers`, param);
  }
  return field;
}

/** The numeric fields of a table: what a plot may draw. */
export const plottable = (fields: readonly Field[]): Field[] => fields.filter((f) => NUMERIC.has(f.type));

/** `points`: a whole number from MIN_POINTS to MAX_POINTS; default DEFAULT_POINTS. */
export function plotPoints(value: unknown): number {
  if (value === undefined || value === null || value === '') return DEFAULT_POINTS;
  const number = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < MIN_POINTS || number > MAX_POINTS) {
    throw invalid(`points: must be a whole number from ${MIN_POINTS} to ${MAX_POINTS}`, 'points');
  }
  return number;
}

/**
 * An axis title: the column's header with its unit's symbol, e.g. `Standardkraft [N]`. `symbol`
 * turns the descriptor's QUDT unit IRI into its symbol; an unknown unit shows its IRI's last part.
 */
export function axisLabel(field: Field, symbol: (unit: string) => string | undefined): string {
  const unit = field.info?.unit;
  return unit ? `${field.id} [${unitShown(unit, symbol)}]` : field.id;
}

/** A unit as the pages show it: its symbol, else its IRI's last part. */
export function unitShown(unit: string, symbol: (unit: string) => string | undefined): string {
  return symbol(unit) ?? unit.replace(/\/+$/, '').split(/[/#]/).pop() ?? unit;
}
