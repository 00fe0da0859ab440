// A record's graph as it is built: quads without duplicates, with helpers for the few term
// shapes records use.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { NS, term, type Prefix } from './vocab.ts';

const { namedNode, literal, blankNode, quad } = DataFactory;

export type Object_ = RDF.NamedNode | RDF.BlankNode | RDF.Literal;

export class RecordGraph {
  readonly quads: RDF.Quad[] = [];
  private readonly seen = new Set<string>();
  private blanks = 0;

  add(subject: RDF.NamedNode | RDF.BlankNode | string, predicate: string, object: Object_ | string): void {
    const s = typeof subject === 'string' ? namedNode(subject) : subject;
    const o = typeof object === 'string' ? namedNode(object) : object;
    const key = `${s.termType}|${s.value}|${predicate}|${o.termType}|${o.value}|${o.termType === 'Literal' ? o.datatype.value : ''}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.quads.push(quad(s, namedNode(predicate), o));
  }

  /** `rdf:type` */
  type(subject: RDF.NamedNode | RDF.BlankNode | string, ...classes: string[]): void {
    for (const c of classes) this.add(subject, `${NS.rdf}type`, c);
  }

  blank(): RDF.BlankNode {
    this.blanks += 1;
    return blankNode(`b${this.blanks}`);
  }

  /** Adds every quad of another graph (blank nodes renamed apart). */
  merge(other: RecordGraph): void {
    const prefix = `m${this.quads.length}_`;
    const rename = <T extends RDF.Term>(t: T): T =>
      (t.termType === 'BlankNode' ? blankNode(prefix + t.value) : t) as T;
    for (const q of other.quads) {
      this.add(
        rename(q.subject) as RDF.NamedNode | RDF.BlankNode,
        q.predicate.value,
        rename(q.object) as Object_,
      );
    }
  }

  has(subject: string, predicate: string): boolean {
    return this.quads.some((q) => q.subject.value === subject && q.predicate.value === predicate);
  }
}

export const iri = (prefix: Prefix, local: string): RDF.NamedNode => namedNode(term(prefix, local));
export const typed = (value: string, datatype: string): RDF.Literal =>
  literal(value, namedNode(NS.xsd + datatype));
export const text = (value: string): RDF.Literal => literal(value);
