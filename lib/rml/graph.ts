// The mapping graph: Turtle parsed by N3.js, legacy terms rewritten onto new RML, indexed by
// subject and predicate. The reader in `mapping.ts` asks it questions such as "the single
// rml:template of this node" and gets a clear error when the mapping breaks a cardinality.
import { Parser, type Quad, type Term } from 'n3';
import { mappingError } from './errors.ts';
import { LEGACY_REWRITE, RDF_FIRST, RDF_NIL, RDF_REST, RDF_TYPE } from './vocab.ts';

export function nodeId(term: Term): string {
  return term.termType === 'BlankNode' ? `_:${term.value}` : term.value;
}

// Turtle string literals (long ones first), and the escapes Turtle knows.
const STRING_LITERAL = /"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g;
const ESCAPE = /\\([\s\S])/g;
const TURTLE_ESCAPES = new Set(['t', 'b', 'n', 'r', 'f', '"', "'", '\\', 'u', 'U']);

/** Doubles the backslash of every escape in a string literal that Turtle does not define. */
function keepUnknownEscapes(turtle: string): string {
  return turtle.replace(STRING_LITERAL, (literal) =>
    literal.replace(ESCAPE, (escape, char: string) => (TURTLE_ESCAPES.has(char) ? escape : `\\${escape}`)),
  );
}

export class MappingGraph {
  private readonly index = new Map<string, Map<string, Term[]>>();
  private readonly terms = new Map<string, Term>();
  /** Whether a legacy term was seen. */
  legacy = false;
  /** Nodes that have a legacy property (rr:, semweb rml:): their triples map's profile. */
  private readonly legacyNodes = new Set<string>();
  /** The document's own `@base` / `BASE`, resolved (legacy mappings resolve generated IRIs against it). */
  documentBase: string | undefined;

  static parse(turtle: string, baseIri: string): MappingGraph {
    let quads: Quad[];
    try {
      quads = new Parser({ baseIRI: baseIri }).parse(turtle);
    } catch (error) {
      // Hand-written templates escape braces and backslashes for the template and forget Turtle's
      // own escaping (`"{N\\\ame}"`, kgc-rml-core-csv RMLTC0024f): an escape Turtle does not
      // define is read as the two characters written, which gives the template the author meant.
      const lenient = keepUnknownEscapes(turtle);
      if (lenient === turtle)
        throw mappingError(`The mapping is not valid Turtle: ${(error as Error).message}`);
      try {
        quads = new Parser({ baseIRI: baseIri }).parse(lenient);
      } catch {
        throw mappingError(`The mapping is not valid Turtle: ${(error as Error).message}`);
      }
    }
    const graph = new MappingGraph(quads);
    graph.documentBase = declaredBase(turtle, baseIri);
    return graph;
  }

  constructor(quads: Iterable<Quad>) {
    for (const quad of quads) {
      const predicate = this.rewrite(quad.predicate.value);
      if (predicate !== quad.predicate.value) this.legacyNodes.add(nodeId(quad.subject));
      const object =
        quad.object.termType === 'NamedNode' && LEGACY_REWRITE.has(quad.object.value)
          ? this.named(this.rewrite(quad.object.value))
          : quad.object;
      const subject = nodeId(quad.subject);
      this.terms.set(subject, quad.subject);
      let byPredicate = this.index.get(subject);
      if (!byPredicate) this.index.set(subject, (byPredicate = new Map()));
      const objects = byPredicate.get(predicate);
      if (!objects) byPredicate.set(predicate, [object]);
      else if (!objects.some((o) => o.equals(object))) objects.push(object);
    }
  }

  private rewrite(iri: string): string {
    const rewritten = LEGACY_REWRITE.get(iri);
    if (rewritten === undefined) return iri;
    this.legacy = true;
    return rewritten;
  }

  private named(iri: string): Term {
    return { termType: 'NamedNode', value: iri, equals: (o: Term | null) => o?.value === iri } as Term;
  }

  /** Whether the node is written in the legacy vocabulary (rr:, semweb rml:). */
  isLegacyNode(id: string): boolean {
    return this.legacyNodes.has(id);
  }

  term(id: string): Term | undefined {
    return this.terms.get(id);
  }

  objects(subject: string, predicate: string): Term[] {
    return this.index.get(subject)?.get(predicate) ?? [];
  }

  has(subject: string, predicate: string): boolean {
    return this.objects(subject, predicate).length > 0;
  }

  /** The single value of a property, or undefined; more than one is a mapping error. */
  one(subject: string, predicate: string, what: string): Term | undefined {
    const objects = this.objects(subject, predicate);
    if (objects.length > 1)
      throw mappingError(`${describe(subject)} has ${objects.length} ${what}; one is allowed`);
    return objects[0];
  }

  /** Subjects with a given rdf:type. */
  subjectsOfType(type: string): string[] {
    const result: string[] = [];
    for (const [subject, byPredicate] of this.index) {
      if (byPredicate.get(RDF_TYPE)?.some((t) => t.value === type)) result.push(subject);
    }
    return result;
  }

  /** Subjects that have the predicate at all. */
  subjectsWith(predicate: string): string[] {
    const result: string[] = [];
    for (const [subject, byPredicate] of this.index) if (byPredicate.has(predicate)) result.push(subject);
    return result;
  }

  /** The members of an RDF collection. */
  list(head: Term): Term[] {
    const items: Term[] = [];
    let node = head;
    while (!(node.termType === 'NamedNode' && node.value === RDF_NIL)) {
      const id = nodeId(node);
      const first = this.objects(id, RDF_FIRST)[0];
      const rest = this.objects(id, RDF_REST)[0];
      if (!first || !rest) throw mappingError(`${describe(id)} is not a well-formed RDF list`);
      items.push(first);
      node = rest;
    }
    return items;
  }
}

// `@base <…> .` or SPARQL-style `BASE <…>` at the start of a line (before or between prefixes).
const BASE_DIRECTIVE = /^[ \t]*(?:@base[ \t]+<([^>]*)>[ \t]*\.|BASE[ \t]+<([^>]*)>)/im;

/** The base the document declares (the first declaration, resolved against the document's IRI). */
function declaredBase(turtle: string, documentIri: string): string | undefined {
  const match = BASE_DIRECTIVE.exec(turtle);
  const base = match?.[1] ?? match?.[2];
  if (base === undefined) return undefined;
  try {
    return new URL(base, documentIri).href;
  } catch {
    return undefined;
  }
}

/** A node as users recognise it in messages. */
export function describe(id: string): string {
  return id.startsWith('_:') ? `A blank node (${id})` : `<${id}>`;
}
