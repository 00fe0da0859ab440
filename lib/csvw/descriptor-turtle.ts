// describe's Turtle (the graph of descriptor-rdf.ts) written as text while the CSV streams,
// without making a quad per triple (issue 29: quads and their text lived just long enough to
// survive young-generation collections). Every term a row repeats — the table, the
// vocabulary, a column's predicate, datatype and unit, the subject's IRI around its GID — is
// encoded once per table by n3's writer; a row then writes its lines into an off-heap buffer
// from those strings, its numbers' lexical forms and its blank-node counters. What cannot be
// written verbatim (an IRI or text needing escapes, an IRI no template fixes) goes through n3.
import type * as RDF from '@rdfjs/types';
import { DataFactory, Writer } from 'n3';
import { ByteOutput } from '../byte-output.ts';
import { resolveUrl } from './common.ts';
import {
  doubleDigits,
  doubleDigitsOf,
  numericLexical,
  DC11,
  OA,
  QUDT,
  type Column,
  type DoubleDigits,
} from './descriptor-cells.ts';
import {
  descriptorParts,
  type DescriptorInput,
  type DescriptorOptions,
  type TableShape,
} from './descriptor-rdf.ts';
import { descriptorRowBatches } from './descriptor-rows.ts';
import { CSV_FIELD, loadResource, type ResourceLoader } from './types.ts';
import { expandTemplate } from './uri-template.ts';
import { CSVW, RDF_NS, XSD } from './vocab.ts';

const { namedNode, literal } = DataFactory;

/** Characters an IRI written as `<…>` or a literal written as `"…"` may not hold as they are. */
// eslint-disable-next-line no-control-regex -- control characters are what needs escaping
const UNSAFE_IRI = /[\x00-\x20<>"{}|^`\\\ud800-\udfff]/;
// eslint-disable-next-line no-control-regex -- see UNSAFE_IRI
const UNSAFE_TEXT = /["\\\x00-\x1f\ud800-\udfff]/;

/** A term as n3 writes it with these prefixes (read back from a line of n3's own). */
function termEncoder(prefixes: Record<string, string>): (term: RDF.Term) => string {
  const writer = new Writer({ prefixes });
  const filler = namedNode('urn:labld:filler');
  const head = writer.quadToString(filler, filler, filler).indexOf(' ') * 2 + 2;
  return (term) => writer.quadToString(filler, filler, term as RDF.Quad_Object).slice(head, -3);
}

/** An IRI made per row from a template: the same text around the row's GID, or per row. */
type RowIri = { before: string; after: string } | { constant: string } | { template: string };

// A GID no template's own text holds: where it lands in the expansion, the GID goes.
const MARK = '4071932658';

function rowIri(template: string, csvUrl: string, encode: (term: RDF.Term) => string): RowIri {
  const expand = (gid: string) =>
    resolveUrl(
      expandTemplate(template, (name) => (name === 'GID' ? gid : undefined)),
      csvUrl,
    );
  const marked = encode(namedNode(expand(MARK)));
  const parts = marked.split(MARK);
  if (parts.length === 1 && encode(namedNode(expand('0'))) === marked) return { constant: marked };
  const [before = '', after = ''] = parts;
  // n3's own text (a prefixed name where it makes one), the GID between.
  if (parts.length === 2 && encode(namedNode(expand('0'))) === `${before}0${after}`) return { before, after };
  return { template };
}

export interface DescriptorTurtle {
  csvUrl: string;
  /** Counted as they are written. */
  counts: { triples: number; rows: number };
  /** The Turtle, the descriptor and provenance first, then each table's rows. */
  chunks: AsyncIterable<Uint8Array>;
}

/**
 * The graph `descriptorGraph` gives (the same triples), as Turtle bytes written while the CSV
 * streams. The descriptor is read (and refused) first; the CSV's errors surface from the chunks.
 */
export async function descriptorTurtle(
  input: DescriptorInput,
  load: ResourceLoader,
  options: DescriptorOptions = {},
): Promise<DescriptorTurtle> {
  const parts = await descriptorParts(input, load, options);
  const counts = { triples: 0, rows: 0 };
  const encode = termEncoder(parts.prefixes);
  // Blank-node labels of the rows, unlike any of the descriptor's.
  let label = 'r';
  const taken = (l: string) =>
    parts.head.some((q) =>
      [q.subject, q.object].some((t) => t.termType === 'BlankNode' && t.value.startsWith(l)),
    );
  while (taken(label)) label += 'r';
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const writer = new Writer({ prefixes: parts.prefixes });
    writer.addQuads(parts.head);
    const head = await new Promise<string>((resolve, reject) =>
      writer.end((error, text: string) => (error ? reject(error) : resolve(text))),
    );
    counts.triples += parts.head.length;
    yield Buffer.from(head);
    const out = new ByteOutput();
    let serial = 0;
    for (const shape of parts.tables) {
      const table = new TableWriter(shape, encode, `_:${label}`, out);
      const resource = await loadResource(load, shape.csvUrl, CSV_FIELD);
      const batches = descriptorRowBatches(resource, shape.csvUrl, shape.dialect, shape.columns.length);
      for await (const rows of batches) {
        for (const row of rows) counts.triples += table.row(row.index, serial++, row.cells);
        counts.rows += rows.length;
        for (const chunk of out.filled.splice(0)) yield chunk;
      }
    }
    out.cut();
    yield* out.filled.splice(0);
  }
  return { csvUrl: parts.csvUrl, counts, chunks: chunks() };
}

/** The text around a row's terms, made once per table. */
function vocabulary(encode: (term: RDF.Term) => string, rowOf: string) {
  const v = (iri: string) => encode(namedNode(iri));
  const type = 'a';
  return {
    rowOf,
    rowType: ` ${type} ${v(CSVW + 'Row')} ;\n  ${v(CSVW + 'describes')} `,
    url: ` ;\n  ${v(CSVW + 'url')} `,
    quantity: ` ${type} ${v(QUDT + 'QuantityValue')} ;\n  ${v(QUDT + 'value')} `,
    first: ` ${v(RDF_NS + 'first')} `,
    rest: ` ;\n  ${v(RDF_NS + 'rest')} `,
    nil: v(RDF_NS + 'nil'),
    annotation: ` ${type} ${v(OA + 'Annotation')} ;\n  ${v(OA + 'hasBody')} `,
    body: ` ${type} ${v(OA + 'TextualBody')} ;\n  ${v(DC11 + 'format')} ${encode(literal('text/plain'))} ;\n  ${v(RDF_NS + 'value')} `,
  };
}

// Turtle's number shorthands, by the datatype they stand for.
const BARE: Record<string, [RegExp, string]> = {
  [XSD + 'integer']: [/^[+-]?\d+$/, '1'],
  [XSD + 'decimal']: [/^[+-]?\d*\.\d+$/, '1.5'],
  [XSD + 'double']: [/^[+-]?(?:\d+\.\d*|\.\d+|\d+)[eE][+-]?\d+$/, '1.5E0'],
};

/** The shorthand of a datatype's numbers, where n3 writes them so too. */
function bareForm(datatype: RDF.NamedNode, encode: (term: RDF.Term) => string): RegExp | undefined {
  const [form, sample] = BARE[datatype.value] ?? [];
  return form && sample && encode(literal(sample, datatype)) === sample ? form : undefined;
}

/** A column's terms, encoded once. */
interface ColumnText {
  column: Column;
  predicate: RowIri;
  /** `^^datatype` of its numbers and of its text (empty for xsd:string). */
  numberType: string;
  /** The lexical forms its numbers are written bare in (`2.6E0`, as n3 writes them), if any. */
  bare: RegExp | undefined;
  /** Its numbers may be written from their digits (doubles; bare in the form of every canonical double or never). */
  digits: boolean;
  textType: string;
  /** ` ;\n  qudt:unit unit:X` or empty. */
  unit: string;
  /** `_<i>`: the column's part of its cells' blank-node labels. */
  suffix: string;
}

const Cell = { None: 0, Quantity: 1, List: 2, Text: 3 } as const;
type Cell = (typeof Cell)[keyof typeof Cell];

/** Writes the rows of one table as Turtle into `out`. */
class TableWriter {
  private readonly columns: ColumnText[];
  private readonly subject: RowIri | undefined;
  private readonly kinds: Cell[];
  /** Per column, this row's number: its lexical form, or (fromDigits) the text `digits` reads. */
  private readonly lexicals: string[];
  private readonly digits: DoubleDigits[];
  private readonly fromDigits: Uint8Array;
  private readonly v: ReturnType<typeof vocabulary>;
  private readonly rowBase: string | undefined;
  private readonly firstRowNumber: number;
  private readonly shape: TableShape;
  private readonly encode: (term: RDF.Term) => string;
  private readonly blank: string;
  private readonly out: ByteOutput;

  constructor(shape: TableShape, encode: (term: RDF.Term) => string, blank: string, out: ByteOutput) {
    this.shape = shape;
    this.encode = encode;
    this.blank = blank;
    this.out = out;
    const typeSuffix = (datatype: RDF.NamedNode) => encode(literal('', datatype)).slice(2);
    this.columns = shape.columns.map((column, i) => {
      const bare = bareForm(column.datatype, encode);
      return {
        column,
        predicate: column.predicate
          ? { constant: encode(column.predicate) }
          : rowIri(column.aboutUrl as string, shape.csvUrl, encode),
        numberType: typeSuffix(column.datatype),
        bare,
        digits: bare === undefined || (bare.test('-1.5E-5') && bare.test('0.0E0')),
        textType: typeSuffix(column.textDatatype),
        unit: column.unit ? ` ;\n  ${encode(namedNode(QUDT + 'unit'))} ${encode(column.unit)}` : '',
        suffix: `_${i}`,
      };
    });
    this.subject = shape.aboutUrl === undefined ? undefined : rowIri(shape.aboutUrl, shape.csvUrl, encode);
    this.kinds = shape.columns.map(() => Cell.None);
    this.lexicals = shape.columns.map(() => '');
    this.digits = shape.columns.map(() => doubleDigits());
    this.fromDigits = new Uint8Array(shape.columns.length);
    this.v = vocabulary(encode, `${encode(shape.table)} ${encode(namedNode(CSVW + 'row'))} ${blank}w`);
    const base = `${shape.csvUrl}/row=`;
    this.rowBase = UNSAFE_IRI.test(base) ? undefined : `<${base}`;
    this.firstRowNumber = shape.dialect.skipRows + shape.dialect.headerRowCount;
  }

  /** Writes a row's lines (`serial` numbers its blank nodes); returns its triples. */
  row(index: number, serial: number, cells: string[]): number {
    const { out, v, blank } = this;
    out.text(v.rowOf);
    out.int(serial);
    out.text(` .\n${blank}w`);
    out.int(serial);
    out.text(v.rowType);
    this.subjectOf(index, serial);
    out.text(v.url);
    const number = index + this.firstRowNumber;
    if (this.rowBase === undefined) out.text(this.encode(namedNode(`${this.shape.csvUrl}/row=${number}`)));
    else {
      out.text(this.rowBase);
      out.int(number);
      out.text('>');
    }
    out.text(' .\n');
    let triples = 4;
    let open = false;
    for (let i = 0; i < this.columns.length; i++) {
      const text = cells[i] as string;
      const kind = this.kindOf(text, i);
      this.kinds[i] = kind;
      if (kind === Cell.None) continue;
      if (open) out.text(' ;\n  ');
      else this.subjectOf(index, serial);
      open = true;
      out.text(' ');
      this.iri((this.columns[i] as ColumnText).predicate, index);
      out.text(' ');
      this.label(kind === Cell.Quantity ? 'q' : kind === Cell.List ? 'l' : 'a', serial, i);
      if (kind === Cell.List) out.text('_0');
      triples += 1;
    }
    if (open) out.text(' .\n');
    for (let i = 0; i < this.columns.length; i++)
      triples += this.nested(this.kinds[i] as Cell, serial, i, cells);
    return triples;
  }

  /** How a cell becomes its object (descriptor-cells.ts's cellObject); a number's lexical kept. */
  private kindOf(text: string, i: number): Cell {
    const trimmed = text.trim();
    if (trimmed === '') return Cell.None;
    const { column, digits } = this.columns[i] as ColumnText;
    if (column.kind === 'number' || column.kind === 'integral') {
      const plain = digits ? doubleDigitsOf(trimmed, column, this.digits[i] as DoubleDigits) : undefined;
      this.fromDigits[i] = plain === undefined ? 0 : 1;
      if (plain !== undefined) {
        this.lexicals[i] = plain;
        return Cell.Quantity;
      }
      const lexical = numericLexical(trimmed, column);
      if (lexical !== undefined) {
        this.lexicals[i] = lexical;
        return Cell.Quantity;
      }
    }
    return column.kind === 'list' ? Cell.List : Cell.Text;
  }

  /** The object's own lines; returns their triples. */
  private nested(kind: Cell, serial: number, i: number, cells: string[]): number {
    const { out, v } = this;
    const column = this.columns[i] as ColumnText;
    if (kind === Cell.Quantity) {
      this.label('q', serial, i);
      out.text(v.quantity);
      const lexical = this.lexicals[i] as string;
      if (this.fromDigits[i] === 1) {
        if (column.bare) this.double(lexical, this.digits[i] as DoubleDigits);
        else {
          out.text('"');
          this.double(lexical, this.digits[i] as DoubleDigits);
          out.text('"');
          out.text(column.numberType);
        }
      } else if (column.bare?.test(lexical)) out.text(lexical);
      else {
        out.text('"');
        out.text(lexical);
        out.text('"');
        out.text(column.numberType);
      }
      out.text(column.unit);
      out.text(' .\n');
      return column.unit === '' ? 2 : 3;
    }
    if (kind === Cell.List) {
      const items = (cells[i] as string).trim().split(/\s+/);
      for (let k = 0; k < items.length; k++) {
        this.label('l', serial, i);
        out.text('_');
        out.int(k);
        out.text(v.first);
        const item = items[k] as string;
        out.text(UNSAFE_IRI.test(item) ? this.encode(namedNode(item)) : `<${item}>`);
        out.text(v.rest);
        if (k + 1 === items.length) out.text(v.nil);
        else {
          this.label('l', serial, i);
          out.text('_');
          out.int(k + 1);
        }
        out.text(' .\n');
      }
      return items.length * 2;
    }
    if (kind === Cell.Text) {
      const text = cells[i] as string;
      this.label('a', serial, i);
      out.text(v.annotation);
      this.label('b', serial, i);
      out.text(' .\n');
      this.label('b', serial, i);
      out.text(v.body);
      if (UNSAFE_TEXT.test(text)) out.text(this.encode(literal(text, column.column.textDatatype)));
      else {
        out.text('"');
        out.text(text);
        out.text('"');
        out.text(column.textType);
      }
      out.text(' .\n');
      return 5;
    }
    return 0;
  }

  /** A double's canonical form from the digits of its text (decimalAsDouble's, no string made). */
  private double(text: string, d: DoubleDigits): void {
    const out = this.out;
    if (d.first < 0) {
      out.text('0.0E0');
      return;
    }
    if (d.negative) out.byte(45 /* - */);
    out.ascii(text, d.first, d.first + 1, -1);
    out.byte(46 /* . */);
    if (d.last === d.first) out.byte(48 /* 0 */);
    else out.ascii(text, d.first + 1, d.last + 1, d.point);
    out.byte(69 /* E */);
    if (d.exponent < 0) out.byte(45 /* - */);
    out.int(Math.abs(d.exponent));
  }

  /** `_:<label><what><serial>_<column>`. */
  private label(what: string, serial: number, i: number): void {
    this.out.text(this.blank);
    this.out.text(what);
    this.out.int(serial);
    this.out.text((this.columns[i] as ColumnText).suffix);
  }

  private subjectOf(index: number, serial: number): void {
    if (this.subject) this.iri(this.subject, index);
    else {
      this.out.text(this.blank);
      this.out.text('s');
      this.out.int(serial);
    }
  }

  private iri(iri: RowIri, index: number): void {
    if ('constant' in iri) this.out.text(iri.constant);
    else if ('before' in iri) {
      this.out.text(iri.before);
      this.out.int(index);
      this.out.text(iri.after);
    } else {
      const gid = String(index);
      const expanded = expandTemplate(iri.template, (name) => (name === 'GID' ? gid : undefined));
      this.out.text(this.encode(namedNode(resolveUrl(expanded, this.shape.csvUrl))));
    }
  }
}
