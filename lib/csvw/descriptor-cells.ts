// The cells of the original annotator's /api/rdf output (see descriptor-rdf.ts): a number
// becomes a qudt:QuantityValue, an anyURI cell an rdf:List of IRIs, anything else an
// oa:Annotation with a TextualBody. Per cell work is kept small (millions of cells per
// request): each column's handling is decided once, and literals keep their parts as fields.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { INTEGRAL_TYPES, NUMERIC_TYPES, numberText, type NumberStyle } from './column-format.ts';
import { RDF_NS, XSD } from './vocab.ts';

const { namedNode, blankNode, literal, quad } = DataFactory;

export const QUDT = 'http://qudt.org/schema/qudt/';
export const QUDT_UNIT = 'http://qudt.org/vocab/unit/';
export const OA = 'http://www.w3.org/ns/oa#';
export const DC11 = 'http://purl.org/dc/elements/1.1/';

const NUMERIC = new Set([...NUMERIC_TYPES].map((name) => XSD + name));
const INTEGRAL = new Set([...INTEGRAL_TYPES].map((name) => XSD + name));

// Terms the cells use, made once.
const T = {
  type: namedNode(RDF_NS + 'type'),
  quantityValue: namedNode(QUDT + 'QuantityValue'),
  value: namedNode(QUDT + 'value'),
  unit: namedNode(QUDT + 'unit'),
  first: namedNode(RDF_NS + 'first'),
  rest: namedNode(RDF_NS + 'rest'),
  nil: namedNode(RDF_NS + 'nil'),
  annotation: namedNode(OA + 'Annotation'),
  hasBody: namedNode(OA + 'hasBody'),
  textualBody: namedNode(OA + 'TextualBody'),
  format: namedNode(DC11 + 'format'),
  rdfValue: namedNode(RDF_NS + 'value'),
  textPlain: literal('text/plain'),
};

/** How a column's cells become objects, decided once per column. */
type CellKind = 'number' | 'integral' | 'list' | 'text';

export interface Column {
  kind: CellKind;
  /** The cell's predicate, unless the column has its own aboutUrl template. */
  predicate: RDF.NamedNode | undefined;
  aboutUrl: string | undefined;
  datatype: RDF.NamedNode;
  /** xsd:decimal keeps the number's own text; the other non-integral types are doubles. */
  decimal: boolean;
  /** Text cells of a numeric column that is not a number keep xsd:string. */
  textDatatype: RDF.NamedNode;
  unit: RDF.NamedNode | undefined;
  /** How its numbers are written (the datatype's decimalChar and groupChar). */
  style: NumberStyle;
}

/**
 * A column of the descriptor (IRI, csvw:format, qudt:unit, csvw:aboutUrl, the number style of
 * its csvw:datatype) as its cells are made.
 */
export function cellColumn(
  iri: string,
  format: string,
  unit: string | undefined,
  aboutUrl: string | undefined,
  style: NumberStyle = null,
): Column {
  const numeric = NUMERIC.has(format);
  return {
    kind: INTEGRAL.has(format)
      ? 'integral'
      : numeric
        ? 'number'
        : format === XSD + 'anyURI'
          ? 'list'
          : 'text',
    predicate: aboutUrl ? undefined : namedNode(iri),
    aboutUrl,
    datatype: namedNode(format),
    decimal: format === XSD + 'decimal',
    textDatatype: numeric ? namedNode(XSD + 'string') : namedNode(format),
    unit: unit === undefined ? undefined : namedNode(unit),
    style,
  };
}

/** xsd:double in its canonical form (1.9E2). */
function doubleLexical(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'INF' : '-INF';
  const [mantissa = '0', exponent = '0'] = value.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

// Significant digits any decimal of up to this many reads back from a double unchanged.
const DOUBLE_DIGITS = 15;

/**
 * Decimal exponents of a number's first significant digit within which every decimal of up to
 * DOUBLE_DIGITS significant digits is a normal double (from about 2.2E-308 to 1.8E308).
 */
const NORMAL_EXPONENT = 300;

/** Where a decimal's canonical xsd:double lies in its text (readDouble). */
export interface DoubleDigits {
  negative: boolean;
  /** The first and last significant digit; -1 for zero. */
  first: number;
  last: number;
  /** Where the point is, or where the digits end when there is none. */
  point: number;
  /** The decimal exponent of the first significant digit. */
  exponent: number;
}

/** A DoubleDigits to be filled by readDouble. */
export const doubleDigits = (): DoubleDigits => ({
  negative: false,
  first: -1,
  last: -1,
  point: -1,
  exponent: 0,
});

/**
 * Reads a decimal such as `-28.80` or `6.8902e-005` into `into`: where the digits of its
 * canonical xsd:double are, without the number-to-text conversion that profiling showed to be
 * the costliest step per cell. Any decimal of at most 15 significant digits in the normal range
 * is the shortest text of its double, so its digits are the canonical ones. False for anything
 * else (commas, more digits, long text, exponents past the normal range).
 */
export function readDouble(text: string, into: DoubleDigits): boolean {
  const length = text.length;
  if (length === 0 || length > 32) return false;
  const sign = text.charCodeAt(0);
  let i = sign === 45 /* - */ || sign === 43 /* + */ ? 1 : 0;
  // The significant digits are text[first..last], less a point between them.
  let first = -1;
  let last = -1;
  let point = -1;
  let seen = false;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */) {
      if (point >= 0) return false;
      point = i;
    } else if (c >= 48 && c <= 57) {
      seen = true;
      if (c !== 48) {
        if (first < 0) first = i;
        last = i;
      }
    } else if (c === 101 /* e */ || c === 69 /* E */) break;
    else return false;
  }
  if (!seen) return false;
  const end = i;
  if (point < 0) point = end;
  let shift = 0;
  if (end < length) {
    // The exponent: a sign, then 1 to 4 digits.
    let at = end + 1;
    const expSign = text.charCodeAt(at);
    if (expSign === 45 || expSign === 43) at += 1;
    if (at === length || length - at > 4) return false;
    for (; at < length; at++) {
      const c = text.charCodeAt(at);
      if (c < 48 || c > 57) return false;
      shift = shift * 10 + (c - 48);
    }
    if (expSign === 45) shift = -shift;
  }
  into.negative = sign === 45;
  into.first = first;
  into.last = last;
  into.point = point;
  into.exponent = 0;
  if (first < 0) return true; // zero of either sign
  if (last - first + (point > first && point < last ? 0 : 1) > DOUBLE_DIGITS) return false;
  const exponent = (first < point ? point - first - 1 : point - first) + shift;
  if (exponent > NORMAL_EXPONENT || exponent < -NORMAL_EXPONENT) return false;
  into.exponent = exponent;
  return true;
}

/** The canonical xsd:double of a decimal, read by readDouble (what doubleLexical(Number(text)) gives), or undefined. */
export function decimalAsDouble(text: string): string | undefined {
  const d = doubleDigits();
  if (!readDouble(text, d)) return undefined;
  const { first, last, point } = d;
  if (first < 0) return '0.0E0'; // as doubleLexical writes either zero
  const rest =
    last === first
      ? '0'
      : point > first && point < last
        ? text.slice(first + 1, point) + text.slice(point + 1, last + 1)
        : text.slice(first + 1, last + 1);
  return `${d.negative ? '-' : ''}${text[first]}.${rest}E${d.exponent}`;
}

/**
 * A cell's typed literal with its parts as fields. n3's Literal keeps one id string and
 * re-parses it on every read of value, language and datatype (a new NamedNode each time),
 * which writing millions of cells showed in the profile; the RDF/JS interface is the same.
 */
class CellLiteral implements RDF.Literal {
  readonly termType = 'Literal';
  readonly language = '';
  readonly direction = '';
  readonly value: string;
  readonly datatype: RDF.NamedNode;

  constructor(value: string, datatype: RDF.NamedNode) {
    this.value = value;
    this.datatype = datatype;
  }

  equals(other: RDF.Term | null | undefined): boolean {
    return (
      !!other &&
      other.termType === 'Literal' &&
      other.value === this.value &&
      other.language === '' &&
      other.datatype.equals(this.datatype)
    );
  }
}

/**
 * The lexical form of a numeric cell (trimmed, not empty) in its column's datatype, read as
 * its column writes numbers (column-format.ts: the descriptor's decimalChar and groupChar,
 * else the original's German decimals repaired), or undefined. A plain decimal of a double
 * column is written from its digits (no number-to-text round trip).
 */
export function numericLexical(trimmed: string, column: Column): string | undefined {
  const plain = numberText(trimmed, column.style);
  if (plain === undefined) return undefined;
  if (column.kind === 'number' && !column.decimal) {
    const lexical = decimalAsDouble(plain);
    if (lexical !== undefined) return lexical;
  }
  const value = Number(plain);
  if (column.kind === 'integral') {
    if (!Number.isInteger(value)) return undefined;
    return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
  }
  return column.decimal ? String(value) : doubleLexical(value);
}

/**
 * numericLexical's fast path without its string (issue 29: the lexical strings were 21.7 of
 * describe's 46.1 MB per MB of CSV): the text whose digits `into` now places, or undefined
 * where numericLexical takes another way.
 */
export function doubleDigitsOf(trimmed: string, column: Column, into: DoubleDigits): string | undefined {
  if (column.kind !== 'number' || column.decimal) return undefined;
  const plain = numberText(trimmed, column.style);
  return plain !== undefined && readDouble(plain, into) ? plain : undefined;
}

/** The object of a cell (trimmed text not empty), its own triples added to `out`. */
export function cellObject(text: string, column: Column, out: RDF.Quad[]): RDF.Quad_Object | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (column.kind === 'number' || column.kind === 'integral') {
    const lexical = numericLexical(trimmed, column);
    if (lexical !== undefined) {
      const node = blankNode();
      out.push(
        quad(node, T.type, T.quantityValue),
        quad(node, T.value, new CellLiteral(lexical, column.datatype)),
      );
      if (column.unit) out.push(quad(node, T.unit, column.unit));
      return node;
    }
  }
  if (column.kind === 'list') {
    let head: RDF.Quad_Object = T.nil;
    const items: RDF.Quad[] = [];
    for (const iri of trimmed.split(/\s+/).toReversed()) {
      const node = blankNode();
      items.push(quad(node, T.first, namedNode(iri)), quad(node, T.rest, head));
      head = node;
    }
    // Written from the head, as the list reads.
    for (let i = items.length - 2; i >= 0; i -= 2) out.push(items[i] as RDF.Quad, items[i + 1] as RDF.Quad);
    return head;
  }
  const annotation = blankNode();
  const body = blankNode();
  out.push(
    quad(annotation, T.type, T.annotation),
    quad(annotation, T.hasBody, body),
    quad(body, T.type, T.textualBody),
    quad(body, T.format, T.textPlain),
    quad(body, T.rdfValue, new CellLiteral(text, column.textDatatype)),
  );
  return annotation;
}
