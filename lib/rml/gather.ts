// RML-CC gather maps: a term map whose term is an rdf:List or an rdf:Bag/Seq/Alt of the terms
// its members make. The generator returns the collection's node; its structure (first/rest
// cells, or type and _n members) is written by `Collections` into the graphs of the triples
// that use the node. Unnamed (blank node) collections belong to one record; a collection
// named by the term map's expression gathers members across records, per graph, and is
// written when the source is done (state that grows with input, for named collections only).
import { compileTermMap, type CompileContext, type TermGen } from './compile.ts';
import type { GatherMap, TermMap } from './model.ts';
import type { QuadSink } from './sink.ts';
import { iriTerm } from './terms.ts';
import { RDF, RDF_FIRST, RDF_NIL, RDF_REST, RDF_TYPE } from './vocab.ts';

const FIRST = iriTerm(RDF_FIRST);
const REST = iriTerm(RDF_REST);
const NIL = iriTerm(RDF_NIL);
const TYPE = iriTerm(RDF_TYPE);

interface Collection {
  as: GatherMap['as'];
  items: string[];
  /** Named by the term map's expression: gathers members across records, per graph. */
  named: boolean;
  /** Graphs the structure went to (blank) or was added to (named), in this record. */
  graphs: Set<string>;
}

export class Collections {
  private readonly fresh: () => string;
  /** The collections made from the current record. */
  private readonly current = new Map<string, Collection>();
  /** Named collections by node and graph, written when the source is done. */
  private readonly named = new Map<string, { node: string; graph: string; collection: Collection }>();

  private readonly graphIds = new Map<string, number>();

  constructor(fresh: () => string) {
    this.fresh = fresh;
  }

  /**
   * The node of `term` in `graph`: a named blank node collection is a different collection in
   * each named graph (RML-CC), so its label is made graph-specific.
   */
  inGraph(term: string, graph: string): string {
    if (graph === '' || !term.startsWith('_:') || !this.current.get(term)?.named) return term;
    let id = this.graphIds.get(graph);
    if (id === undefined) this.graphIds.set(graph, (id = this.graphIds.size + 1));
    return `${term}_${id}`;
  }

  add(node: string, as: GatherMap['as'], items: string[], named: boolean): void {
    const known = this.current.get(node);
    if (known) known.items.push(...items);
    else this.current.set(node, { as, items: [...items], named, graphs: new Set() });
  }

  /** A new record: the collections of the last one are done or merged. */
  nextRecord(): void {
    this.current.clear();
  }

  /** `term` was written in `graphs`: if it is a collection, so is (or will be) its structure. */
  use(term: string, graphs: readonly string[], sink: QuadSink): void {
    const collection = this.current.get(term);
    if (!collection) return;
    for (const graph of graphs) {
      if (collection.graphs.has(graph)) continue;
      collection.graphs.add(graph);
      if (!collection.named) {
        this.write(term, collection, graph, sink);
        continue;
      }
      const node = this.inGraph(term, graph);
      const key = `${node} ${graph}`;
      const merged = this.named.get(key);
      if (merged) merged.collection.items.push(...collection.items);
      else
        this.named.set(key, {
          node,
          graph,
          collection: { ...collection, items: [...collection.items] },
        });
    }
  }

  /** Writes the named collections (their members may come from every record). */
  finish(sink: QuadSink): void {
    for (const { node, graph, collection } of this.named.values()) this.write(node, collection, graph, sink);
    this.named.clear();
  }

  private write(node: string, collection: Collection, graph: string, sink: QuadSink): void {
    const { as, items } = collection;
    if (as === 'List') {
      let cell = node;
      for (let i = 0; i < items.length; i += 1) {
        sink.quad(cell, FIRST, items[i]!, graph);
        const next = i + 1 < items.length ? this.fresh() : NIL;
        sink.quad(cell, REST, next, graph);
        cell = next;
      }
    } else {
      sink.quad(node, TYPE, iriTerm(`${RDF}${as}`), graph);
      items.forEach((item, i) => sink.quad(node, iriTerm(`${RDF}_${i + 1}`), item, graph));
    }
    // Nested gather maps: the members' own structure goes to the same graph.
    for (const item of items) this.use(item, [graph], sink);
  }
}

function terms(value: string | string[] | null): string[] {
  return value === null ? [] : Array.isArray(value) ? value : [value];
}

function product(lists: string[][]): string[][] {
  let result: string[][] = [[]];
  for (const list of lists) result = result.flatMap((prefix) => list.map((item) => [...prefix, item]));
  return result;
}

export function compileGather(map: TermMap, gather: GatherMap, ctx: CompileContext): TermGen {
  const collections = ctx.collections;
  const members = gather.members.map((m) => compileTermMap(m, ctx));
  const named = map.expression.kind !== 'none';
  const name: TermGen = named ? compileTermMap({ ...map, gather: undefined }, ctx) : () => ctx.fresh();
  return (record) => {
    const values = members.map((member) => terms(member(record)));
    const groups = gather.cartesian ? product(values) : [values.flat()];
    const nodes: string[] = [];
    for (const items of groups) {
      if (items.length === 0 && !gather.allowEmpty) continue;
      if (items.length === 0 && gather.as === 'List') {
        nodes.push(NIL);
        continue;
      }
      for (const node of terms(name(record))) {
        collections.add(node, gather.as, items, named);
        nodes.push(node);
      }
    }
    return nodes.length === 0 ? null : nodes.length === 1 ? nodes[0]! : nodes;
  };
}
