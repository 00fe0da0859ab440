// How big a query or update may be before any store sees it (issue 25, finding 1). oxigraph
// (WASM) recurses over the query's algebra and dies on deep trees ("memory access out of
// bounds" from about 1,000 nested groups, 1,000 OPTIONALs or BINDs in a row, 4,000 UNION
// branches), a sequence path's cost grows with the cube of its length (250 steps: 1.3 s, 500:
// 10 s), and sparqljs itself takes quadratic time on nested brackets (5,000: 33 s). So the
// text is measured first by one linear scan (bracket depth; terms, which are each a node of
// the tree), then the parsed tree by one walk without recursion; whatever passes a limit is
// refused, naming it, before anything runs.
import { intSetting } from '../process/config.ts';
import { tooLarge } from '../process/errors.ts';

export interface QueryBounds {
  /** LABLD_SPARQL_MAX_NODES: terms, patterns, expressions and paths of the whole tree. */
  maxNodes: number;
  /** LABLD_SPARQL_MAX_DEPTH: brackets in the text; levels of the algebra in the tree. */
  maxDepth: number;
  /** LABLD_SPARQL_MAX_UNION: branches of one UNION. */
  maxUnion: number;
  /** LABLD_SPARQL_MAX_PATH: IRIs in one property path. */
  maxPath: number;
  /** LABLD_SPARQL_MAX_VALUES: cells of one VALUES block. */
  maxValues: number;
}

export function queryBoundsFromEnv(env: NodeJS.ProcessEnv = process.env): QueryBounds {
  return {
    maxNodes: intSetting('LABLD_SPARQL_MAX_NODES', env),
    maxDepth: intSetting('LABLD_SPARQL_MAX_DEPTH', env),
    maxUnion: intSetting('LABLD_SPARQL_MAX_UNION', env),
    maxPath: intSetting('LABLD_SPARQL_MAX_PATH', env),
    maxValues: intSetting('LABLD_SPARQL_MAX_VALUES', env),
  };
}

/** The documented defaults (no environment). */
export const DEFAULT_QUERY_BOUNDS: QueryBounds = queryBoundsFromEnv({});

const n = (value: number) => value.toLocaleString('en');

function refuse(field: string, what: string, name: string): never {
  throw tooLarge(`${field}: ${what} (${name}); simplify the ${field}`, field);
}

// eslint-disable-next-line no-control-regex -- SPARQL's IRIREF excludes control characters
const IRI = /<[^<>"{}|^`\\\u0000-\u0020]*>/y;
/** A name, variable or number; dots inside it too (`ex:a.b`, `1.5`), not at its end. */
const WORD = /[^\s{}()[\],;'"<>#/|^*+!=&]*/y;

/**
 * Tokens the text may have per LABLD_SPARQL_MAX_NODES: keywords and punctuation make no term
 * (`{} {} …`, `true && true …`) but cost sparqljs as much (10,000 empty groups: 1.2 s).
 */
const TOKENS_PER_NODE = 2;

/**
 * Before parsing: the deepest bracket nesting, the tokens, and the terms (IRIs, prefixed
 * names, variables, literals, numbers), skipping strings, IRIs and comments. Each term is a
 * node of the tree, so a text with more terms than LABLD_SPARQL_MAX_NODES has more nodes too.
 */
export function checkText(text: string, field: string, bounds: QueryBounds): void {
  let depth = 0;
  let terms = 0;
  let tokens = 0;
  const maxTokens = TOKENS_PER_NODE * bounds.maxNodes;
  // Not terms of the tree: a PREFIX's or BASE's name and IRI, a literal's datatype.
  let skip = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    let term = false;
    if (c !== ' ' && c !== '\n' && c !== '\t' && c !== '\r' && ++tokens > maxTokens) {
      refuse(field, `more than ${n(maxTokens)} tokens`, `${TOKENS_PER_NODE} × LABLD_SPARQL_MAX_NODES`);
    }
    if (c === '{' || c === '(' || c === '[') {
      if (++depth > bounds.maxDepth) {
        refuse(field, `brackets nested more than ${n(bounds.maxDepth)} deep`, 'LABLD_SPARQL_MAX_DEPTH');
      }
      i++;
    } else if (c === '}' || c === ')' || c === ']') {
      depth = Math.max(0, depth - 1);
      i++;
    } else if (c === '#') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end + 1;
    } else if (c === '"' || c === "'") {
      i = afterString(text, i);
      term = true;
    } else if (c === '<' && ((IRI.lastIndex = i), IRI.test(text))) {
      i = IRI.lastIndex;
      term = true;
    } else if (text.startsWith('^^', i)) {
      skip = 1;
      i += 2;
    } else {
      WORD.lastIndex = i;
      WORD.test(text);
      let end = WORD.lastIndex;
      while (end > i && text[end - 1] === '.') end--;
      if (end === i) {
        i++;
        continue;
      }
      const word = text.slice(i, end);
      if (/^(prefix|base)$/i.test(word)) skip = word.length === 6 ? 2 : 1;
      // Variables, prefixed names, blank nodes and numbers are terms; keywords are not.
      else term = /^[?$]|:|^[-+]?[.0-9]/.test(word);
      i = end;
    }
    if (term && skip > 0) skip--;
    else if (term && ++terms > bounds.maxNodes) {
      refuse(field, `more than ${n(bounds.maxNodes)} terms`, 'LABLD_SPARQL_MAX_NODES');
    }
  }
}

/** The index after the string literal starting at `start` (short or long, with escapes). */
function afterString(text: string, start: number): number {
  const quote = text[start]!;
  const long = text.startsWith(quote.repeat(3), start);
  const close = long ? quote.repeat(3) : quote;
  let i = start + close.length;
  while (i < text.length) {
    if (text[i] === '\\') i += 2;
    else if (text.startsWith(close, i)) return i + close.length;
    else if (!long && text[i] === '\n') return i;
    else i++;
  }
  return i;
}

/** Lists whose items oxigraph nests one inside the next (joins, left joins, unions, extends). */
const CHAINS = new Set(['where', 'patterns', 'items', 'args']);

/**
 * After parsing: walks the sparqljs tree once, with a stack of its own (a deep tree must not
 * overflow this thread's stack either), counting every node and the algebra's depth, where
 * the k-th item of a group, UNION, path or operator counts k levels deeper, as oxigraph nests it.
 */
export function checkTree(tree: object, field: string, bounds: QueryBounds): void {
  let nodes = 0;
  const stack: { node: unknown; depth: number }[] = [{ node: tree, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, depth });
      continue;
    }
    if (++nodes > bounds.maxNodes) {
      refuse(field, `more than ${n(bounds.maxNodes)} nodes in its algebra`, 'LABLD_SPARQL_MAX_NODES');
    }
    if (depth > bounds.maxDepth) {
      refuse(field, `its algebra nested more than ${n(bounds.maxDepth)} deep`, 'LABLD_SPARQL_MAX_DEPTH');
    }
    const record = node as Record<string, unknown>;
    if (record.termType !== undefined) continue;
    if (record.type === 'union') {
      const width = (record.patterns as unknown[]).length;
      if (width > bounds.maxUnion) {
        refuse(
          field,
          `a UNION of ${n(width)} branches, more than ${n(bounds.maxUnion)}`,
          'LABLD_SPARQL_MAX_UNION',
        );
      }
    }
    if (record.type === 'path') {
      const steps = pathSteps(record);
      if (steps > bounds.maxPath) {
        refuse(
          field,
          `a property path of ${n(steps)} steps, more than ${n(bounds.maxPath)}`,
          'LABLD_SPARQL_MAX_PATH',
        );
      }
    }
    if (record.type === 'values') {
      const rows = record.values as Record<string, unknown>[];
      const cells = rows.reduce((sum, row) => sum + Object.keys(row).length, 0);
      if (cells > bounds.maxValues) {
        refuse(
          field,
          `VALUES of ${n(cells)} cells, more than ${n(bounds.maxValues)}`,
          'LABLD_SPARQL_MAX_VALUES',
        );
      }
      continue;
    }
    for (const [key, value] of Object.entries(record)) {
      if (CHAINS.has(key) && Array.isArray(value)) {
        value.forEach((item, k) => stack.push({ node: item, depth: depth + 1 + k }));
      } else stack.push({ node: value, depth: depth + 1 });
    }
  }
}

/** IRIs in a path and the paths inside it (its depth is already bounded by the walk). */
function pathSteps(path: Record<string, unknown>): number {
  let steps = 0;
  const stack: unknown[] = [path];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    if (node.termType !== undefined) steps++;
    else if (Array.isArray(node.items)) stack.push(...(node.items as unknown[]));
  }
  return steps;
}
