// "longturtle": rdflib's diff-friendly Turtle layout, which no npm package writes.
//   PREFIX lines (sorted, only those used), a blank line, then one block per subject:
//   the subject alone on a line, `a` first, one predicate per line indented 4 spaces, each
//   of several objects on its own line 4 further, ` ,` between objects, ` ;` after every
//   predicate, and `.` alone on the block's last line. Blank nodes referenced once are
//   written inline as `[ … ]`, well-formed lists as `( … )`. Blank nodes are labelled by
//   RDFC-1.0 canonicalisation first (as newer rdflib does), so equal graphs give equal text.
// Terms are written by n3's Writer, so escaping and prefixed names follow n3.
import type * as RDF from '@rdfjs/types';
import { BaseIRI, DataFactory, Writer } from 'n3';
import { canonicalize } from './isomorphism.ts';
import { RDF_FIRST, RDF_NIL, RDF_REST, RDF_TYPE, RDFS } from './vocab.ts';

const RDFS_LABEL = `${RDFS}label`;
const STEP = '    ';
/** Deep iterations of RDFC-1.0 allowed (measured: under a second on any chain length). */
const CANONICAL_BUDGET = 2000;
/**
 * Deepest inline `[ … ]` nesting below a block. Every level indents each line below it, so
 * a chain written inline grows with the square of its length (a 100,000-node chain ran out
 * of memory); lab graphs nest a few levels (a row's quantity value).
 */
const INLINE_DEPTH = 8;

// n3's Writer has no public per-term API; these methods are what its own output uses.
interface TermEncoder {
  _encodePredicate(term: RDF.Term): string;
  _encodeObject(term: RDF.Term): string;
}

function termEncoder(prefixes: Readonly<Record<string, string>>): TermEncoder {
  const encoder = new Writer({ prefixes: { ...prefixes } }) as unknown as TermEncoder;
  if (typeof encoder._encodeObject !== 'function' || typeof encoder._encodePredicate !== 'function') {
    throw new Error('n3 Writer no longer exposes _encodeObject/_encodePredicate; longturtle needs updating');
  }
  return encoder;
}

interface Node {
  term: RDF.Quad_Subject;
  properties: Map<string, { predicate: RDF.Quad_Predicate; objects: RDF.Quad_Object[] }>;
}

export interface LongTurtleOptions {
  /** Prefixes to use (only those the graph uses are written). */
  prefixes?: Readonly<Record<string, string>>;
  /** Written as BASE; IRIs under it are written relative to it. */
  base?: string;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Writes the triples of every graph (longturtle has no named graphs). */
export async function writeLongTurtle(
  quads: Iterable<RDF.Quad>,
  options: LongTurtleOptions = {},
): Promise<string> {
  const all = [...quads];
  let labels: Map<string, string>;
  try {
    // Work factor 2 (O(n²) deep iterations) handles symmetric cycles; beyond that, or past
    // CANONICAL_BUDGET iterations, the graph is hostile or pathological and the input labels
    // are kept. (Uncapped, a chain of 500 blank nodes took 31 s, of 1000 over two minutes:
    // each iteration walks the chain again.)
    labels = (await canonicalize(all, 2, CANONICAL_BUDGET)).labels;
  } catch {
    labels = new Map();
  }
  return new LongTurtleWriter(all, labels, options).write();
}

class LongTurtleWriter {
  private readonly labels: Map<string, string>;
  private readonly prefixes: Record<string, string>;
  private readonly base: string | undefined;
  private readonly relative: BaseIRI | undefined;
  private readonly encoder: TermEncoder;
  private readonly plain = termEncoder({});
  private readonly nodes = new Map<string, Node>();
  /** How often each blank node is an object. */
  private readonly references = new Map<string, number>();
  private readonly inline: Set<string>;
  private readonly lists = new Map<string, RDF.Quad_Object[]>();
  private readonly usedPrefixes = new Set<string>();
  private out: string[] = [];

  constructor(quads: readonly RDF.Quad[], labels: Map<string, string>, options: LongTurtleOptions) {
    this.labels = labels;
    this.prefixes = { ...options.prefixes };
    this.base = options.base;
    this.relative = options.base ? new BaseIRI(options.base) : undefined;
    this.encoder = termEncoder(this.prefixes);
    const seen = new Set<string>();
    for (const { subject, predicate, object } of quads) {
      const objectKey = object.termType === 'Literal' ? this.encoder._encodeObject(object) : this.key(object);
      const tripleKey = `${this.key(subject)} ${predicate.value} ${objectKey}`;
      if (seen.has(tripleKey)) continue; // duplicates
      seen.add(tripleKey);
      let node = this.nodes.get(this.key(subject));
      if (!node) this.nodes.set(this.key(subject), (node = { term: subject, properties: new Map() }));
      let property = node.properties.get(predicate.value);
      if (!property) node.properties.set(predicate.value, (property = { predicate, objects: [] }));
      property.objects.push(object);
      if (object.termType === 'BlankNode') {
        this.references.set(this.key(object), (this.references.get(this.key(object)) ?? 0) + 1);
      }
    }
    const key = (t: RDF.Term): string => this.key(t);
    this.inline = inlineBlankNodes(this.nodes, this.references, key);
    for (const k of this.inline) {
      const items = listItems(k, this.nodes, this.inline, key);
      if (items) this.lists.set(k, items);
    }
  }

  write(): string {
    // Blocks: IRI subjects by IRI, then labelled blank nodes, then unreferenced ones (`[]`).
    const roots = [...this.nodes.entries()].filter(([k]) => !this.inline.has(k));
    const rank = ([k, n]: [string, Node]): number =>
      n.term.termType !== 'BlankNode' ? 0 : this.references.has(k) ? 1 : 2;
    roots.sort((a, b) => rank(a) - rank(b) || compare(a[0], b[0]));
    const blocks = roots.map(([k, node]) => {
      this.out = [];
      const unreferenced = node.term.termType === 'BlankNode' && !this.references.has(k);
      this.out.push(unreferenced ? '[]\n' : `${this.subject(node.term)}\n`);
      this.writeProperties(node, STEP);
      this.out.push('.\n');
      return this.out.join('');
    });
    // Prefixes are known to be used only once everything is written.
    const head: string[] = [];
    if (this.base) head.push(`BASE <${this.base}>\n`);
    for (const name of [...this.usedPrefixes].sort(compare)) {
      head.push(`PREFIX ${name}: <${this.prefixes[name]}>\n`);
    }
    const separator = head.length && blocks.length ? '\n' : '';
    return head.join('') + separator + blocks.join('\n');
  }

  private key(term: RDF.Term): string {
    return term.termType === 'BlankNode' ? `_:${this.label(term)}` : term.value;
  }

  private label(blank: RDF.Term): string {
    return this.labels.get(blank.value) ?? blank.value;
  }

  /** An IRI as n3 wrote it (`text`): prefixed names are kept (and noted), full IRIs under
   * the base become relative (rdflib relativises only those, never with `../`). */
  private iri(text: string, iri: string, relativise = true): string {
    if (text.startsWith('<')) {
      if (!this.relative || !relativise || !iri.startsWith(this.base!)) return text;
      return this.plain._encodeObject(DataFactory.namedNode(this.relative.toRelative(iri)));
    }
    const name = text.slice(0, text.indexOf(':'));
    if (this.prefixes[name] !== undefined) this.usedPrefixes.add(name);
    return text;
  }

  private subject(term: RDF.Term): string {
    // rdf:nil as a subject stays an IRI (`()` is only written for objects).
    return term.termType === 'NamedNode'
      ? this.iri(this.encoder._encodeObject(term), term.value)
      : this.term(term);
  }

  private predicate(term: RDF.Term): string {
    return term.value === RDF_TYPE ? 'a' : this.iri(this.encoder._encodePredicate(term), term.value);
  }

  /** A term that fits on one line. */
  private term(term: RDF.Term): string {
    if (term.termType === 'BlankNode')
      return this.inline.has(this.key(term)) ? '[]' : `_:${this.label(term)}`;
    if (term.termType === 'NamedNode') {
      return term.value === RDF_NIL ? '()' : this.iri(this.encoder._encodeObject(term), term.value);
    }
    const text = this.encoder._encodeObject(term);
    // After the closing quote (inner quotes are escaped) may come `^^datatype`.
    const datatypeAt = text.lastIndexOf('"') + 3;
    if (text.slice(datatypeAt - 2, datatypeAt) !== '^^') return text;
    return (
      text.slice(0, datatypeAt) +
      this.iri(text.slice(datatypeAt), (term as RDF.Literal).datatype.value, false)
    );
  }

  private isBlock(object: RDF.Term): boolean {
    return this.inline.has(this.key(object)) && this.nodes.has(this.key(object));
  }

  private writeItems(items: RDF.Quad_Object[], indent: string): void {
    for (const item of items) {
      this.writeObject(item, indent);
      this.out.push('\n');
    }
  }

  private writeObject(object: RDF.Quad_Object, indent: string): void {
    const items = this.lists.get(this.key(object));
    const node = this.isBlock(object) ? this.nodes.get(this.key(object)) : undefined;
    if (items) {
      this.out.push(`${indent}(\n`);
      this.writeItems(items, indent + STEP);
      this.out.push(`${indent})`);
    } else if (node) {
      this.out.push(`${indent}[\n`);
      this.writeProperties(node, indent + STEP);
      this.out.push(`${indent}]`);
    } else this.out.push(indent + this.term(object));
  }

  private writeProperties(node: Node, indent: string): void {
    for (const { predicate, objects } of sortedProperties(node)) {
      const sorted = sortObjects(objects, (t) => this.key(t));
      const first = sorted[0]!;
      const list = sorted.length === 1 ? this.lists.get(this.key(first)) : undefined;
      if (list) {
        // A single list opens on the predicate's line, as rdflib writes it.
        this.out.push(`${indent}${this.predicate(predicate)} (\n`);
        this.writeItems(list, indent + STEP);
        this.out.push(`${indent}) ;\n`);
      } else if (sorted.length === 1 && !this.isBlock(first)) {
        this.out.push(`${indent}${this.predicate(predicate)} ${this.term(first)} ;\n`);
      } else {
        this.out.push(`${indent}${this.predicate(predicate)}\n`);
        sorted.forEach((object, i) => {
          this.writeObject(object, indent + STEP);
          this.out.push(i < sorted.length - 1 ? ' ,\n' : ' ;\n');
        });
      }
    }
  }
}

function sortedProperties(node: Node): { predicate: RDF.Quad_Predicate; objects: RDF.Quad_Object[] }[] {
  // rdf:type first and rdfs:label next (rdflib's predicate order), then by IRI.
  const rank = (iri: string): number => (iri === RDF_TYPE ? 0 : iri === RDFS_LABEL ? 1 : 2);
  return [...node.properties.values()].sort(
    (a, b) =>
      rank(a.predicate.value) - rank(b.predicate.value) || compare(a.predicate.value, b.predicate.value),
  );
}

function sortObjects(objects: RDF.Quad_Object[], key: (t: RDF.Term) => string): RDF.Quad_Object[] {
  // Blank nodes first, then IRIs, then literals (rdflib's order), each by a stable key.
  const rank = (t: RDF.Term): number => (t.termType === 'BlankNode' ? 0 : t.termType === 'NamedNode' ? 1 : 2);
  const sortKey = (t: RDF.Term): string =>
    t.termType === 'Literal' ? `${t.value}\u0000${t.language}\u0000${t.datatype.value}` : key(t);
  return [...objects].sort((a, b) => rank(a) - rank(b) || compare(sortKey(a), sortKey(b)));
}

/**
 * Blank nodes written inline: referenced exactly once and reachable from a block. A cycle
 * of such nodes is reachable from nowhere; its first node (by label) becomes a labelled
 * block instead, which makes the rest reachable. A node nested deeper than INLINE_DEPTH
 * below its block starts a labelled block of its own.
 */
function inlineBlankNodes(
  nodes: Map<string, Node>,
  references: Map<string, number>,
  key: (t: RDF.Term) => string,
): Set<string> {
  const candidates = new Set([...references].filter(([, count]) => count === 1).map(([k]) => k));
  const reached = new Set<string>();
  const tooDeep: string[] = [];
  const visit = (start: string): void => {
    const stack: [string, number][] = [[start, 0]];
    while (stack.length) {
      const [at, depth] = stack.pop()!;
      const node = nodes.get(at);
      for (const [predicate, { objects }] of node?.properties ?? []) {
        // The cells of a list are written side by side in `( … )`, not nested.
        const below = predicate === RDF_REST && listCell(node!) ? depth : depth + 1;
        for (const object of objects) {
          const k = key(object);
          if (!candidates.has(k) || reached.has(k)) continue;
          if (below > INLINE_DEPTH) {
            candidates.delete(k);
            tooDeep.push(k);
          } else {
            reached.add(k);
            stack.push([k, below]);
          }
        }
      }
    }
  };
  for (const k of nodes.keys()) if (!candidates.has(k)) visit(k);
  for (const k of [...candidates].sort(compare)) {
    if (reached.has(k) || !candidates.has(k)) continue;
    candidates.delete(k);
    visit(k);
  }
  while (tooDeep.length > 0) visit(tooDeep.pop()!);
  return new Set([...candidates].filter((k) => reached.has(k)));
}

/** A node with exactly one rdf:first and one rdf:rest, as listItems reads a list cell. */
function listCell(node: Node): boolean {
  return (
    node.properties.size === 2 &&
    node.properties.get(RDF_FIRST)?.objects.length === 1 &&
    node.properties.get(RDF_REST)?.objects.length === 1
  );
}

/** The items of a well-formed list whose nodes are all inline, or undefined. */
function listItems(
  head: string,
  nodes: Map<string, Node>,
  inline: Set<string>,
  key: (t: RDF.Term) => string,
): RDF.Quad_Object[] | undefined {
  const items: RDF.Quad_Object[] = [];
  const visited = new Set<string>();
  for (let k = head; k !== RDF_NIL;) {
    const node = nodes.get(k);
    if (!node || visited.has(k) || !inline.has(k) || node.properties.size !== 2) return undefined;
    visited.add(k);
    const first = node.properties.get(RDF_FIRST)?.objects;
    const rest = node.properties.get(RDF_REST)?.objects;
    if (first?.length !== 1 || rest?.length !== 1) return undefined;
    items.push(first[0]!);
    const next = rest[0]!;
    if (next.termType !== 'BlankNode' && next.value !== RDF_NIL) return undefined;
    k = key(next);
  }
  return items;
}
