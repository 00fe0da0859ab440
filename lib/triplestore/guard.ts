// Isolation by construction: a query or update for a dataset is parsed (sparqljs), checked
// and rewritten so that it can only run over that dataset's graphs, whatever its text says.
// Never by looking at the text with regular expressions: the parsed tree is the only truth,
// and what is sent to a store is generated from that tree.
//
// Queries: SERVICE and extension functions are refused; a graph named anywhere (FROM, FROM
// NAMED, GRAPH <g>) must be one of the dataset's; the dataset clause is taken out of the query
// and handed to the store as its protocol dataset (default graph = the union of the named
// graphs, or what FROM chose among them), which also bounds GRAPH ?g, paths and subqueries.
// Updates: only the dataset's existing graphs may be written, each named (GRAPH or WITH), and
// every WHERE gets an explicit USING / USING NAMED of the dataset's graphs.
import sparqljs from 'sparqljs';
import type { GraphOrDefault, IriTerm, Quads, Query, Update, UpdateOperation } from 'sparqljs';
import { forbidden, invalid } from '../process/errors.ts';
import { DEFAULT_QUERY_BOUNDS, checkText, checkTree, type QueryBounds } from './bounds.ts';

/** Namespaces no query may name: the store's own bookkeeping and Jena's special graphs. */
const RESERVED = ['urn:labld:', 'urn:x-arq:'];
/** The only extension functions allowed: XSD casts (SPARQL 1.1 §17.5). */
const XSD = 'http://www.w3.org/2001/XMLSchema#';

export type QueryForm = 'select' | 'ask' | 'construct' | 'describe';

export interface GuardedQuery {
  /** The query to run, generated from the checked tree, without a dataset clause. */
  text: string;
  form: QueryForm;
  /** The graphs whose union is the default graph (empty: an empty default graph). */
  defaultGraphs: string[];
  /** The graphs GRAPH ?g may range over. */
  namedGraphs: string[];
}

export interface GuardedUpdate {
  text: string;
  /** The dataset's graphs the update may change. */
  graphs: string[];
}

/** Parses within `bounds` (bounds.ts): the text measured before, the tree after. */
function parse(text: string, field: 'query' | 'update', bounds: QueryBounds): Query | Update {
  if (typeof text !== 'string' || text.trim() === '')
    throw invalid(`${field}: no SPARQL ${field} given`, field);
  checkText(text, field, bounds);
  let tree: Query | Update;
  try {
    tree = new sparqljs.Parser().parse(text) as Query | Update;
  } catch (error) {
    const lines = String((error as Error).message ?? error)
      .split('\n')
      .slice(0, 3)
      .join(' ');
    throw invalid(`${field}: not valid SPARQL: ${lines.slice(0, 300)}`, field);
  }
  checkTree(tree, field, bounds);
  return tree;
}

const generator = new sparqljs.Generator();

/**
 * Walks the whole tree once: refuses SERVICE, extension functions and reserved IRIs, and
 * every graph named by a GRAPH pattern or quad block that is not one of `allowed`.
 */
function inspect(node: unknown, allowed: ReadonlySet<string>, field: string): void {
  if (Array.isArray(node)) {
    for (const item of node) inspect(item, allowed, field);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.termType === 'NamedNode') {
    const iri = String(record.value);
    if (RESERVED.some((prefix) => iri.startsWith(prefix))) {
      throw forbidden(`${field}: <${iri}> is reserved and may not be named`, field);
    }
    return;
  }
  if (record.type === 'service')
    throw forbidden(`${field}: SERVICE is not allowed (no federated queries)`, field);
  if (record.type === 'functionCall') {
    const fn = record.function as { value?: string } | undefined;
    if (!fn?.value?.startsWith(XSD)) {
      throw forbidden(`${field}: the extension function <${fn?.value ?? '?'}> is not allowed`, field);
    }
  }
  if (record.type === 'graph') {
    const name = record.name as { termType?: string; value?: string } | undefined;
    if (name?.termType === 'NamedNode') requireGraph(name.value!, allowed, field);
  }
  for (const value of Object.values(record)) inspect(value, allowed, field);
}

function requireGraph(iri: string, allowed: ReadonlySet<string>, field: string): void {
  if (!allowed.has(iri)) throw forbidden(`${field}: <${iri}> is not a graph of this dataset`, field);
}

/** Checks and rewrites a query for a dataset with `graphs`; `maxResults` bounds a SELECT's rows. */
export function guardQuery(
  text: string,
  graphs: readonly string[],
  maxResults: number,
  bounds: QueryBounds = DEFAULT_QUERY_BOUNDS,
): GuardedQuery {
  const tree = parse(text, 'query', bounds);
  if (tree.type !== 'query') throw invalid('query: an update was sent as a query', 'query');
  const allowed = new Set(graphs);
  inspect(tree, allowed, 'query');
  let defaultGraphs = [...graphs];
  let namedGraphs = [...graphs];
  if (tree.from) {
    const chosen = [...tree.from.default, ...tree.from.named];
    for (const g of chosen) {
      if (RESERVED.some((prefix) => g.value.startsWith(prefix))) {
        throw forbidden(`query: <${g.value}> is reserved and may not be named`, 'query');
      }
      requireGraph(g.value, allowed, 'query');
    }
    // SPARQL §13.2: a dataset clause replaces the whole dataset, named graphs included.
    defaultGraphs = tree.from.default.map((g) => g.value);
    namedGraphs = tree.from.named.map((g) => g.value);
    delete tree.from;
  }
  const form = tree.queryType.toLowerCase() as QueryForm;
  if (form === 'select') {
    // One more than allowed: the store can tell "exactly the limit" from "more than it". Only
    // for SELECT, where solutions are the rows; a CONSTRUCT's triples are a set that fewer
    // solutions would silently cut, so those are counted after (and bounded by the time limit).
    const bounded = tree as { limit?: number };
    bounded.limit = Math.min(bounded.limit ?? Number.POSITIVE_INFINITY, maxResults + 1);
  }
  return { text: generator.stringify(tree), form, defaultGraphs, namedGraphs };
}

/** Checks and rewrites an update for a dataset with `graphs`. */
export function guardUpdate(
  text: string,
  graphs: readonly string[],
  bounds: QueryBounds = DEFAULT_QUERY_BOUNDS,
): GuardedUpdate {
  const tree = parse(text, 'update', bounds);
  if (tree.type !== 'update') throw invalid('update: a query was sent as an update', 'update');
  const allowed = new Set(graphs);
  inspect(tree, allowed, 'update');
  const touched = new Set<string>();
  for (const op of tree.updates) guardOperation(op, graphs, allowed, touched);
  return { text: generator.stringify(tree), graphs: [...touched].sort() };
}

function graphName(ref: GraphOrDefault | IriTerm | undefined): string | undefined {
  if (ref === undefined) return undefined;
  if ('termType' in ref) return ref.termType === 'NamedNode' ? ref.value : undefined;
  return ref.name?.value;
}

/** A GRAPH <g> of the dataset (never DEFAULT, NAMED, ALL: the default graph is a union). */
function namedTarget(ref: GraphOrDefault, what: string, allowed: ReadonlySet<string>): string {
  const name = graphName(ref);
  if (name === undefined) {
    throw forbidden(
      `update: ${what} must name one graph of this dataset (not DEFAULT, NAMED or ALL)`,
      'update',
    );
  }
  requireGraph(name, allowed, 'update');
  return name;
}

function guardOperation(
  op: UpdateOperation,
  graphs: readonly string[],
  allowed: ReadonlySet<string>,
  touched: Set<string>,
): void {
  if ('type' in op) {
    switch (op.type) {
      case 'load':
        throw forbidden('update: LOAD is not allowed: graphs are loaded from the catalogue', 'update');
      case 'create':
        throw forbidden('update: CREATE is not allowed: graphs are made by loading resources', 'update');
      case 'clear':
      case 'drop':
        touched.add(namedTarget(op.graph, op.type.toUpperCase(), allowed));
        return;
      default: {
        const source = namedTarget(op.source, `${op.type.toUpperCase()}'s source`, allowed);
        touched.add(namedTarget(op.destination, `${op.type.toUpperCase()}'s target`, allowed));
        if (op.type === 'move') touched.add(source);
        return;
      }
    }
  }
  const withGraph = graphName(op.graph as GraphOrDefault | IriTerm | undefined);
  if (withGraph !== undefined) requireGraph(withGraph, allowed, 'update');
  const place = (quads: Quads[]): Quads[] =>
    quads.map((block) => {
      if (block.type === 'graph') {
        if (block.name.termType !== 'NamedNode') {
          throw forbidden(
            'update: a template writes only into graphs named by IRI (GRAPH ?var is refused)',
            'update',
          );
        }
        touched.add(block.name.value);
        return block;
      }
      if (withGraph === undefined) {
        throw forbidden(
          "update: the dataset's default graph is the union of its graphs: write into one of them with GRAPH <…> or WITH <…>",
          'update',
        );
      }
      touched.add(withGraph);
      return {
        type: 'graph',
        name: { termType: 'NamedNode', value: withGraph } as IriTerm,
        triples: block.triples,
      };
    });
  const editable = op as { insert?: Quads[]; delete?: Quads[]; graph?: unknown; using?: unknown };
  if (editable.insert) editable.insert = place(editable.insert);
  if (editable.delete) editable.delete = place(editable.delete);
  if (op.updateType === 'insertdelete') {
    if (op.using) {
      for (const g of [...op.using.default, ...op.using.named]) requireGraph(g.value, allowed, 'update');
    } else {
      const iri = (value: string) => ({ termType: 'NamedNode', value }) as IriTerm;
      op.using = {
        default: (withGraph === undefined ? graphs : [withGraph]).map(iri),
        named: graphs.map(iri),
      };
    }
  }
  delete editable.graph;
}
