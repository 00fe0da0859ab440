// package_search's `q`, `fq` and `fq_list` as CKAN users write them for Solr: a small subset of
// the Lucene query syntax read by a tokenizer and a recursive-descent parser into a tree the
// catalogue stores turn into SQL. What is outside the subset (ranges, fuzzy, boosts, wildcards
// inside a word, unknown fields) is refused naming the parameter, never passed over: a filter
// dropped in silence would answer another question than the one asked.
//
//   query   := or
//   or      := and (("OR" | "||") and)*
//   and     := unary (("AND" | "&&")? unary)*        -- side by side means AND, as CKAN's q.op
//   unary   := ("NOT" | "!" | "-") unary | "+" unary | primary
//   primary := "(" or ")" | FIELD ":" (value | "(" values ")") | value | "*:*"
//   value   := WORD | WORD "*" | "\"phrase\"" | "*"
import { invalid } from '../process/errors.ts';
import { STEP_FACETS, type StepFacetField } from '../chain/pipeline.ts';

/** How a value matches: the word (or the whole value of an exact field), a prefix, a phrase, or any value. */
export type Match = 'word' | 'prefix' | 'phrase' | 'any';

export type SearchNode =
  | { all: true }
  | { field: SearchField; value: string; match: Match }
  | { not: SearchNode }
  | { and: SearchNode[] }
  | { or: SearchNode[] };

/** The fields a query may name; `text` is the default one (name, title, notes, resources' names). */
export const SEARCH_FIELDS = [
  'text',
  'name',
  'title',
  'notes',
  'id',
  'groups',
  'tags',
  'organization',
  'owner_org',
  'res_format',
  'res_name',
  'res_description',
  'license_id',
  'author',
  'maintainer',
  'version',
  'url',
  'dataset_type',
  'type',
  'state',
  'capacity',
  'creator_user_id',
] as const;
/** Besides CKAN's: the fields the chain's steps declare, each the outcome of a step (pipeline.ts `facet`). */
export type SearchField = (typeof SEARCH_FIELDS)[number] | StepFacetField;

/** The step whose outcome a field is, for a field a step declares. */
export const stepOfField = (field: string): string | undefined =>
  STEP_FACETS.find((f) => f.field === field)?.step;

const FIELDS = new Set<string>([...SEARCH_FIELDS, ...STEP_FACETS.map((f) => f.field)]);
/** Bounds that keep the SQL made from a query small. */
const MAX_TERMS = 100;
const MAX_DEPTH = 20;
const MAX_LENGTH = 4000;

type Token =
  | { kind: '(' | ')' | 'and' | 'or' | 'not' | 'must' | 'all' }
  | { kind: 'field'; name: string }
  | { kind: 'value'; value: string; match: Match };

/** Characters that end a word (Lucene's specials this subset reads or refuses). */
const SPECIAL = new Set([...' \t\r\n()":[]{}^~?']);

function tokenize(text: string, param: string): Token[] {
  const fail = (why: string): never => {
    throw invalid(`${why}; labld reads field:value, "phrases", prefix*, +, -, NOT, AND, OR and ( )`, param);
  };
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ kind: c });
      i++;
      continue;
    }
    if (text.startsWith('&&', i) || text.startsWith('||', i)) {
      tokens.push({ kind: c === '&' ? 'and' : 'or' });
      i += 2;
      continue;
    }
    // `+` and `-` are operators at the start of a clause only: inside a word they are its letters.
    if (c === '+' || c === '-' || c === '!') {
      tokens.push({ kind: c === '+' ? 'must' : 'not' });
      i++;
      continue;
    }
    if (text.startsWith('*:*', i)) {
      tokens.push({ kind: 'all' });
      i += 3;
      continue;
    }
    if (c === '"') {
      let value = '';
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        value += text[i];
        i++;
      }
      if (i >= text.length) fail(`a phrase without its closing quote at ${i}`);
      i++;
      if (text[i] === '~' || text[i] === '^')
        fail(`"${text[i]}" after a phrase (proximity or boost) at ${i}`);
      tokens.push({ kind: 'value', value, match: 'phrase' });
      continue;
    }
    if (SPECIAL.has(c)) fail(`"${c}" at ${i} is not read (ranges, fuzzy, boosts and ? are not supported)`);
    let word = '';
    while (i < text.length && !SPECIAL.has(text[i]!)) {
      if (text[i] === '\\' && i + 1 < text.length) i++;
      word += text[i];
      i++;
    }
    if (text[i] === ':') {
      tokens.push({ kind: 'field', name: word });
      i++;
      continue;
    }
    if (text[i] === '~' || text[i] === '^' || text[i] === '?' || text[i] === '[' || text[i] === '{') {
      fail(`"${text[i]}" at ${i} is not read (fuzzy, boosts, ? wildcards and ranges are not supported)`);
    }
    if (word === 'AND' || word === 'OR' || word === 'NOT') {
      tokens.push({ kind: word === 'AND' ? 'and' : word === 'OR' ? 'or' : 'not' });
      continue;
    }
    const stars = word.indexOf('*');
    if (word === '*') tokens.push({ kind: 'value', value: '', match: 'any' });
    else if (stars === -1) tokens.push({ kind: 'value', value: word, match: 'word' });
    else if (stars === word.length - 1)
      tokens.push({ kind: 'value', value: word.slice(0, -1), match: 'prefix' });
    else fail(`a wildcard inside ${JSON.stringify(word)}: only a trailing * (a prefix) is read`);
  }
  return tokens;
}

class Parser {
  #at = 0;
  #terms = 0;
  readonly #tokens: Token[];
  readonly #param: string;

  constructor(tokens: Token[], param: string) {
    this.#tokens = tokens;
    this.#param = param;
  }

  fail(why: string): never {
    throw invalid(
      `${why}; labld reads field:value, "phrases", prefix*, +, -, NOT, AND, OR and ( )`,
      this.#param,
    );
  }

  peek(): Token | undefined {
    return this.#tokens[this.#at];
  }

  next(): Token | undefined {
    return this.#tokens[this.#at++];
  }

  done(): boolean {
    return this.#at >= this.#tokens.length;
  }

  or(depth: number, field?: SearchField): SearchNode {
    const terms = [this.and(depth, field)];
    while (this.peek()?.kind === 'or') {
      this.next();
      terms.push(this.and(depth, field));
    }
    return terms.length === 1 ? terms[0]! : { or: terms };
  }

  and(depth: number, field?: SearchField): SearchNode {
    const terms = [this.unary(depth, field)];
    for (;;) {
      const token = this.peek();
      if (token === undefined || token.kind === ')' || token.kind === 'or') break;
      if (token.kind === 'and') this.next();
      terms.push(this.unary(depth, field));
    }
    return terms.length === 1 ? terms[0]! : { and: terms };
  }

  unary(depth: number, field?: SearchField): SearchNode {
    const token = this.peek();
    if (token?.kind === 'not') {
      this.next();
      return { not: this.unary(depth, field) };
    }
    if (token?.kind === 'must') {
      this.next();
      return this.unary(depth, field);
    }
    return this.primary(depth, field);
  }

  primary(depth: number, field?: SearchField): SearchNode {
    if (depth > MAX_DEPTH) this.fail(`nested deeper than ${MAX_DEPTH}`);
    const token = this.next();
    if (token === undefined) return this.fail('ends where a term is expected');
    if (token.kind === '(') {
      const inner = this.or(depth + 1, field);
      if (this.next()?.kind !== ')') this.fail('a "(" without its ")"');
      return inner;
    }
    if (token.kind === 'all' && field === undefined) return { all: true };
    if (token.kind === 'field' && field === undefined) {
      if (!FIELDS.has(token.name)) {
        this.fail(
          `labld does not search the field ${JSON.stringify(token.name)} (it searches ${[...FIELDS].join(', ')})`,
        );
      }
      const named = token.name as SearchField;
      if (this.peek()?.kind === '(') {
        this.next();
        const inner = this.or(depth + 1, named);
        if (this.next()?.kind !== ')') this.fail('a "(" without its ")"');
        return inner;
      }
      const value = this.next();
      if (value?.kind !== 'value') return this.fail(`${token.name}: needs a value after the ":"`);
      return this.term(named, value);
    }
    if (token.kind === 'value') return this.term(field ?? 'text', token);
    return this.fail(`${describe(token)} where a term is expected`);
  }

  term(field: SearchField, token: Token & { kind: 'value' }): SearchNode {
    if (++this.#terms > MAX_TERMS) this.fail(`more than ${MAX_TERMS} terms`);
    return { field, value: token.value, match: token.match };
  }
}

function describe(token: Token): string {
  if (token.kind === 'field') return `the field ${JSON.stringify(token.name)}`;
  if (token.kind === 'value') return JSON.stringify(token.value);
  return `"${{ and: 'AND', or: 'OR', not: 'NOT', must: '+', all: '*:*' }[token.kind as string] ?? token.kind}"`;
}

/**
 * The tree of one `q` or `fq` text; undefined when it is empty or `*:*` alone (everything).
 * Refusals are `invalid` naming `param`.
 */
export function parseSearch(text: string, param: string): SearchNode | undefined {
  if (text.length > MAX_LENGTH) throw invalid(`longer than ${MAX_LENGTH} characters`, param);
  // No database keeps it in text (PostgreSQL refuses it), so no dataset can match it.
  if (text.includes('\0')) throw invalid('contains a NUL character', param);
  const tokens = tokenize(text, param);
  if (tokens.length === 0) return undefined;
  const parser = new Parser(tokens, param);
  const tree = parser.or(0);
  if (!parser.done()) parser.fail(`${describe(parser.peek()!)} without its "("`);
  return 'all' in tree ? undefined : tree;
}

/**
 * What a person typed into a search box, as a `q`: as written when it reads as a query, else
 * each of its words as a phrase (`C++ 10:30` → `"C++" "10:30"`), so a box never answers with a
 * syntax error. Quotes and backslashes inside a word are escaped, NUL is dropped.
 */
export function searchBoxQuery(typed: string): string {
  try {
    parseSearch(typed, 'q');
    return typed;
  } catch {
    return typed
      .replaceAll('\0', '')
      .split(/\s+/)
      .filter((word) => word !== '')
      .map((word) => `"${word.replace(/["\\]/g, '\\$&')}"`)
      .join(' ');
  }
}

/** Every part that must hold: the trees of q, fq and each of fq_list together. */
export function allOf(trees: (SearchNode | undefined)[]): SearchNode | undefined {
  const given = trees.filter((t): t is SearchNode => t !== undefined);
  return given.length === 0 ? undefined : given.length === 1 ? given[0] : { and: given };
}

/** The words a relevance score counts: the text terms of `q` that are not negated. */
export function scoreTerms(tree: SearchNode | undefined): string[] {
  if (tree === undefined || 'all' in tree || 'not' in tree) return [];
  if ('and' in tree) return tree.and.flatMap(scoreTerms);
  if ('or' in tree) return tree.or.flatMap(scoreTerms);
  const texts: SearchField[] = ['text', 'title', 'name', 'notes'];
  return texts.includes(tree.field) && tree.match !== 'any' && tree.value !== '' ? [tree.value] : [];
}

// --- sort and facets -------------------------------------------------------------------

export const SORT_FIELDS = [
  'score',
  'name',
  'title_string',
  'metadata_modified',
  'metadata_created',
  'id',
  'num_resources',
] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export interface SortKey {
  field: SortField;
  desc: boolean;
}

/** CKAN's `sort`: `field dir` pairs separated by commas (Solr's syntax); refusals name `sort`. */
export function parseSort(text: string): SortKey[] {
  const keys = text.split(',').map((part) => {
    const words = part.trim().split(/\s+/);
    const [field = '', dir = 'asc'] = words;
    if (
      words.length > 2 ||
      !(SORT_FIELDS as readonly string[]).includes(field) ||
      !/^(asc|desc)$/i.test(dir)
    ) {
      throw invalid(
        `${JSON.stringify(part.trim().slice(0, 100))}: give "field asc|desc" pairs separated by commas, on ${SORT_FIELDS.join(', ')}`,
        'sort',
      );
    }
    return { field: field as SortField, desc: dir.toLowerCase() === 'desc' };
  });
  if (keys.length > SORT_FIELDS.length) throw invalid(`at most ${SORT_FIELDS.length} sort keys`, 'sort');
  return keys;
}

const BASE_FACET_FIELDS = ['groups', 'organization', 'tags', 'res_format', 'license_id'] as const;
export type FacetField = (typeof BASE_FACET_FIELDS)[number] | StepFacetField;
/** CKAN's facet fields labld counts, and those the chain's steps declare. */
export const FACET_FIELDS: readonly FacetField[] = [...BASE_FACET_FIELDS, ...STEP_FACETS.map((f) => f.field)];
export interface FacetQuery {
  fields: FacetField[];
  /** The most values per field (the largest counts). */
  limit: number;
  /** The least count a value needs to be listed (at least 1). */
  mincount: number;
}
/** One value of a facet: CKAN's search_facets item. */
export interface FacetItem {
  name: string;
  display_name: string;
  count: number;
}
