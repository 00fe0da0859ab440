// A small JSONPath (Goessner / RFC 9535 subset) compiled once into step functions: dotted and
// bracketed names (any key, `@id` included), wildcards, indices, slices, unions, recursive
// descent `..`, and filters `[?(@.a == 'x' && @.b > 2)]`. A syntax error is a mapping error
// (an expression fault: the path, what is wrong, the position).
import { expressionError } from './errors.ts';
import { isObject } from '../json.ts';

export type JsonPathEvaluator = (root: unknown) => unknown[];

type Step = (node: unknown, out: unknown[]) => void;
type Filter = (node: unknown, root: unknown) => boolean;
type Operand = (node: unknown, root: unknown) => unknown[];

const cache = new Map<string, JsonPathEvaluator>();
/** Paths come from client mappings: a long-running service must not keep every one it saw. */
const CACHE_LIMIT = 1000;

/** Compiles `path` (it must start with `$`); evaluators are cached per path text. */
export function compileJsonPath(path: string): JsonPathEvaluator {
  let evaluator = cache.get(path);
  if (!evaluator) {
    evaluator = new PathParser(path).parseRoot();
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(path, evaluator);
  }
  return evaluator;
}

function children(node: unknown, out: unknown[]): void {
  if (Array.isArray(node)) for (const item of node) out.push(item);
  else if (isObject(node)) for (const key of Object.keys(node)) out.push(node[key]);
}

function descendants(node: unknown, out: unknown[]): void {
  out.push(node);
  if (Array.isArray(node)) for (const item of node) descendants(item, out);
  else if (isObject(node)) for (const key of Object.keys(node)) descendants(node[key], out);
}

function nameStep(name: string): Step {
  return (node, out) => {
    if (isObject(node) && Object.hasOwn(node, name)) out.push(node[name]);
  };
}

function indexStep(index: number): Step {
  return (node, out) => {
    if (!Array.isArray(node)) return;
    const i = index < 0 ? node.length + index : index;
    if (i >= 0 && i < node.length) out.push(node[i]);
  };
}

function sliceStep(start: number | undefined, end: number | undefined, step: number): Step {
  return (node, out) => {
    if (!Array.isArray(node) || step === 0) return;
    const n = node.length;
    const norm = (i: number) => (i < 0 ? Math.max(n + i, 0) : Math.min(i, n));
    if (step > 0) {
      for (let i = norm(start ?? 0); i < norm(end ?? n); i += step) out.push(node[i]);
    } else {
      const lower = end === undefined ? -1 : norm(end);
      for (let i = start === undefined ? n - 1 : Math.min(norm(start), n - 1); i > lower; i += step)
        out.push(node[i]);
    }
  };
}

function run(steps: Step[], start: unknown): unknown[] {
  let current: unknown[] = [start];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const node of current) step(node, next);
    current = next;
    if (current.length === 0) break;
  }
  return current;
}

function compare(op: string, a: unknown, b: unknown): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return (typeof a === 'number' && typeof b === 'number') ||
        (typeof a === 'string' && typeof b === 'string')
        ? a < b
        : false;
    case '<=':
      return (typeof a === 'number' && typeof b === 'number') ||
        (typeof a === 'string' && typeof b === 'string')
        ? a <= b
        : false;
    case '>':
      return compare('<', b, a);
    default:
      return compare('<=', b, a);
  }
}

class PathParser {
  private pos = 0;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  parseRoot(): JsonPathEvaluator {
    this.skipSpace();
    if (this.text[this.pos] !== '$') throw this.fail('a path must start with "$"');
    this.pos += 1;
    const steps = this.parseSteps(false);
    this.skipSpace();
    if (this.pos < this.text.length) throw this.fail(`unexpected "${this.text[this.pos]}"`);
    return simpleNames(steps.names) ?? ((root) => run(steps.steps, root));
  }

  private parseSteps(inFilter: boolean): { steps: Step[]; names: string[] | null } {
    const steps: Step[] = [];
    let names: string[] | null = [];
    for (;;) {
      const c = this.text[this.pos];
      if (c === '.' && this.text[this.pos + 1] === '.') {
        this.pos += 2;
        names = null;
        const inner = this.text[this.pos] === '[' ? this.parseBracket() : this.parseDotName(inFilter);
        steps.push((node, out) => {
          const all: unknown[] = [];
          descendants(node, all);
          for (const each of all) inner(each, out);
        });
      } else if (c === '.' && this.text[this.pos + 1] === '[') {
        // `$.[*]` as `$[*]`: Jayway (RMLMapper) reads it so, and the YARRRML parser's tests use it.
        this.pos += 1;
      } else if (c === '.') {
        this.pos += 1;
        const name = this.readDotName(inFilter);
        if (name === '*') {
          names = null;
          steps.push(children);
        } else {
          names?.push(name);
          steps.push(nameStep(name));
        }
      } else if (c === '[') {
        const start = this.pos;
        const step = this.parseBracket();
        const quoted = /^\[\s*(['"])((?:\\.|(?!\1).)*)\1\s*\]$/.exec(this.text.slice(start, this.pos));
        if (quoted && names) names.push(unquote(quoted[2]!));
        else names = null;
        steps.push(step);
      } else {
        return { steps, names };
      }
    }
  }

  private parseDotName(inFilter: boolean): Step {
    const name = this.readDotName(inFilter);
    return name === '*' ? children : nameStep(name);
  }

  /** Dot notation names run to the next `.` or `[` (so `$.@id` and `$.First Name` work). */
  private readDotName(inFilter: boolean): string {
    const start = this.pos;
    const stop = inFilter ? /[.[\s)=!<>&|,\]]/ : /[.[]/;
    while (this.pos < this.text.length && !stop.test(this.text[this.pos]!)) this.pos += 1;
    if (this.pos === start) throw this.fail('a name is missing after "."');
    return this.text.slice(start, this.pos);
  }

  private parseBracket(): Step {
    this.pos += 1; // [
    const selectors: Step[] = [];
    for (;;) {
      this.skipSpace();
      selectors.push(this.parseSelector());
      this.skipSpace();
      const c = this.text[this.pos];
      this.pos += 1;
      if (c === ']') break;
      if (c !== ',') throw this.fail('"]" expected', this.pos - 1);
    }
    if (selectors.length === 1) return selectors[0]!;
    return (node, out) => {
      for (const selector of selectors) selector(node, out);
    };
  }

  private parseSelector(): Step {
    const c = this.text[this.pos];
    if (c === "'" || c === '"') return nameStep(this.readString());
    if (c === '*') {
      this.pos += 1;
      return children;
    }
    if (c === '?') {
      this.pos += 1;
      this.skipSpace();
      const parenthesised = this.text[this.pos] === '(';
      if (parenthesised) this.pos += 1;
      const filter = this.parseOr();
      this.skipSpace();
      if (parenthesised) this.expect(')');
      return (node, out) => {
        const items: unknown[] = [];
        children(node, items);
        for (const item of items) if (filter(item, node)) out.push(item);
      };
    }
    const match = /^(-?\d+)?\s*(?::\s*(-?\d+)?\s*(?::\s*(-?\d+)?)?)?/.exec(this.text.slice(this.pos));
    if (!match || match[0] === '') throw this.fail('a name, index, slice, "*" or filter expected');
    this.pos += match[0].length;
    if (!match[0].includes(':')) return indexStep(Number(match[1]));
    const num = (s: string | undefined) => (s === undefined ? undefined : Number(s));
    return sliceStep(num(match[1]), num(match[2]), num(match[3]) ?? 1);
  }

  private parseOr(): Filter {
    let left = this.parseAnd();
    while (this.consume('||')) {
      const a = left;
      const b = this.parseAnd();
      left = (node, root) => a(node, root) || b(node, root);
    }
    return left;
  }

  private parseAnd(): Filter {
    let left = this.parseUnary();
    while (this.consume('&&')) {
      const a = left;
      const b = this.parseUnary();
      left = (node, root) => a(node, root) && b(node, root);
    }
    return left;
  }

  private parseUnary(): Filter {
    this.skipSpace();
    if (this.text[this.pos] === '!' && this.text[this.pos + 1] !== '=') {
      this.pos += 1;
      const inner = this.parseUnary();
      return (node, root) => !inner(node, root);
    }
    if (this.text[this.pos] === '(') {
      this.pos += 1;
      const inner = this.parseOr();
      this.skipSpace();
      this.expect(')');
      return inner;
    }
    const left = this.parseOperand();
    this.skipSpace();
    const op = /^(==|!=|<=|>=|<|>|=~)/.exec(this.text.slice(this.pos))?.[0];
    if (!op) return (node, root) => left(node, root).length > 0;
    this.pos += op.length;
    this.skipSpace();
    if (op === '=~') {
      const regex = this.readRegex();
      return (node, root) => left(node, root).some((v) => typeof v === 'string' && regex.test(v));
    }
    const right = this.parseOperand();
    return (node, root) => {
      const a = left(node, root);
      const b = right(node, root);
      return a.length === 1 && b.length === 1 && compare(op, a[0], b[0]);
    };
  }

  private parseOperand(): Operand {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === '@' || c === '$') {
      this.pos += 1;
      const { steps } = this.parseSteps(true);
      return c === '@' ? (node) => run(steps, node) : (_node, root) => run(steps, root);
    }
    if (c === "'" || c === '"') {
      const value = [this.readString()];
      return () => value;
    }
    const literal = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(this.pos));
    if (!literal) throw this.fail('a filter operand expected');
    this.pos += literal[0].length;
    const value = [JSON.parse(literal[0]) as unknown];
    return () => value;
  }

  private readString(): string {
    const quote = this.text[this.pos]!;
    let value = '';
    for (this.pos += 1; this.pos < this.text.length; this.pos += 1) {
      const c = this.text[this.pos]!;
      if (c === '\\' && this.pos + 1 < this.text.length) {
        this.pos += 1;
        value += this.text[this.pos];
      } else if (c === quote) {
        this.pos += 1;
        return value;
      } else {
        value += c;
      }
    }
    throw this.fail('unterminated string');
  }

  private readRegex(): RegExp {
    const match = /^\/((?:\\.|[^/])*)\/([a-z]*)/.exec(this.text.slice(this.pos));
    if (!match) throw this.fail('a /regex/ expected');
    try {
      const regex = new RegExp(match[1]!, match[2]);
      this.pos += match[0].length;
      return regex;
    } catch {
      throw this.fail(`/${match[1]}/${match[2]} is not a valid regular expression`);
    }
  }

  private consume(token: string): boolean {
    this.skipSpace();
    if (!this.text.startsWith(token, this.pos)) return false;
    this.pos += token.length;
    return true;
  }

  private expect(token: string): void {
    if (!this.consume(token)) throw this.fail(`"${token}" expected`);
  }

  private skipSpace(): void {
    while (this.text[this.pos] === ' ' || this.text[this.pos] === '\t') this.pos += 1;
  }

  private fail(why: string, at = this.pos): Error {
    return expressionError({ expression: this.text, reason: `is not valid JSONPath: ${why}`, position: at });
  }
}

function unquote(body: string): string {
  return body.replace(/\\(.)/g, '$1');
}

/** `$.a.b['c']` only: a direct property walk, without intermediate arrays. */
function simpleNames(names: string[] | null): JsonPathEvaluator | null {
  if (!names) return null;
  if (names.length === 1) {
    const [name] = names as [string];
    return (root) => (isObject(root) && Object.hasOwn(root, name) ? [root[name]] : []);
  }
  return (root) => {
    let node = root;
    for (const name of names) {
      if (!isObject(node) || !Object.hasOwn(node, name)) return [];
      node = node[name];
    }
    return [node];
  };
}
