// The RDF of an annotated table group (W3C "Generating RDF from Tabular Data on the Web"):
// standard mode with the TableGroup/Table/Row scaffolding, or minimal mode with the cell
// triples only. Quads go to a sink as they are made, so rows stream through.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Cell } from './annotate.ts';
import type { JsonLdValue } from './common.ts';
import type { CommonProperties } from './properties.ts';
import type { Literal } from './values.ts';
import type { Mode } from './types.ts';
import { CSVW, RDF_NS, RDFS, XSD } from './vocab.ts';

const { namedNode, blankNode, literal, quad } = DataFactory;

export type QuadSink = (quad: RDF.Quad) => void;

const TYPE = namedNode(RDF_NS + 'type');
const FIRST = namedNode(RDF_NS + 'first');
const REST = namedNode(RDF_NS + 'rest');
const NIL = namedNode(RDF_NS + 'nil');
// The terms of every row's description, made once (not per row).
const ROW = {
  row: namedNode(CSVW + 'row'),
  type: namedNode(CSVW + 'Row'),
  rownum: namedNode(CSVW + 'rownum'),
  url: namedNode(CSVW + 'url'),
  title: namedNode(CSVW + 'title'),
  describes: namedNode(CSVW + 'describes'),
  integer: namedNode(XSD + 'integer'),
};

function jsonNumber(value: number): RDF.Literal {
  if (Number.isInteger(value) && Math.abs(value) < 1e21)
    return literal(String(value), namedNode(XSD + 'integer'));
  // JSON-LD's canonical double: mantissa with one digit before the point, E, no '+'.
  const [mantissa = '0', exponent = '0'] = value.toExponential().split('e');
  const withPoint = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  return literal(`${withPoint}E${Number(exponent)}`, namedNode(XSD + 'double'));
}

export class Emitter {
  private readonly sink: QuadSink;
  readonly standard: boolean;

  constructor(sink: QuadSink, mode: Mode) {
    this.sink = sink;
    this.standard = mode === 'standard';
  }

  emit(subject: RDF.Quad_Subject, predicate: RDF.Quad_Predicate, object: RDF.Quad_Object): void {
    this.sink(quad(subject, predicate, object));
  }

  node(id: string | undefined): RDF.NamedNode | RDF.BlankNode {
    return id === undefined ? blankNode() : namedNode(id);
  }

  literal(value: Literal): RDF.Literal {
    if (value.language) return literal(value.lexical, value.language);
    return literal(value.lexical, namedNode(value.datatype));
  }

  /** A JSON-LD-like value (common properties, notes) as an RDF term, emitting its triples. */
  private value(value: JsonLdValue): RDF.Quad_Object {
    if ('@value' in value) {
      const raw = value['@value'];
      if (value['@language']) return literal(String(raw), value['@language']);
      if (value['@type']) return literal(String(raw), namedNode(value['@type']));
      if (typeof raw === 'number') return jsonNumber(raw);
      if (typeof raw === 'boolean') return literal(String(raw), namedNode(XSD + 'boolean'));
      return literal(raw);
    }
    const subject = this.node(value['@id']);
    for (const type of value['@type'] ?? []) this.emit(subject, TYPE, namedNode(type));
    this.properties(subject, value.properties);
    return subject;
  }

  /** Common properties (and notes, as csvw:note) of a described object. */
  properties(subject: RDF.Quad_Subject, properties: CommonProperties): void {
    for (const [property, values] of properties) {
      const predicate = namedNode(property);
      for (const value of values) this.emit(subject, predicate, this.value(value));
    }
  }

  group(id: string | undefined, notes: JsonLdValue[], common: CommonProperties): RDF.Quad_Subject {
    const group = this.node(id);
    this.emit(group, TYPE, namedNode(CSVW + 'TableGroup'));
    this.properties(group, [[CSVW + 'note', notes], ...common]);
    return group;
  }

  table(
    group: RDF.Quad_Subject,
    id: string | undefined,
    url: string,
    notes: JsonLdValue[],
    common: CommonProperties,
  ): RDF.Quad_Subject {
    const table = this.node(id);
    this.emit(group, namedNode(CSVW + 'table'), table);
    this.emit(table, TYPE, namedNode(CSVW + 'Table'));
    this.emit(table, namedNode(CSVW + 'url'), namedNode(url));
    this.properties(table, [[CSVW + 'note', notes], ...common]);
    return table;
  }

  comment(table: RDF.Quad_Subject, text: string): void {
    this.emit(table, namedNode(RDFS + 'comment'), literal(text));
  }

  /** One row: its csvw:Row node (standard mode) and the triples of its cells. */
  row(
    table: RDF.Quad_Subject | undefined,
    url: string,
    number: number,
    sourceNumber: number,
    titles: Literal[],
    cells: Cell[],
  ): void {
    let row: RDF.BlankNode | undefined;
    if (this.standard && table) {
      row = blankNode();
      this.emit(table, ROW.row, row);
      this.emit(row, TYPE, ROW.type);
      this.emit(row, ROW.rownum, literal(String(number), ROW.integer));
      this.emit(row, ROW.url, namedNode(`${url.split('#')[0]}#row=${sourceNumber}`));
      for (const title of titles) this.emit(row, ROW.title, this.literal(title));
    }
    const defaultSubject = blankNode();
    const described = new Set<string>();
    for (const cell of cells) {
      if (cell.column.suppressOutput) continue;
      const subject = cell.aboutUrl === undefined ? defaultSubject : namedNode(cell.aboutUrl);
      const predicate = namedNode(cell.propertyUrl);
      if (cell.valueUrl !== undefined) {
        this.emit(subject, predicate, namedNode(cell.valueUrl));
      } else if (cell.value.list && cell.column.ordered && cell.value.literals.length > 0) {
        this.emit(subject, predicate, this.list(cell.value.literals.map((value) => this.literal(value))));
      } else {
        for (const value of cell.value.literals) this.emit(subject, predicate, this.literal(value));
      }
      const key = subject.termType + subject.value;
      if (row && !described.has(key)) {
        described.add(key);
        this.emit(row, ROW.describes, subject);
      }
    }
  }

  private list(items: RDF.Quad_Object[]): RDF.Quad_Object {
    let head: RDF.Quad_Object = NIL;
    for (const item of items.toReversed()) {
      const node = blankNode();
      this.emit(node, FIRST, item);
      this.emit(node, REST, head);
      head = node;
    }
    return head;
  }
}
