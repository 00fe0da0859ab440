// Limits on hostile input shapes (issue 11): nesting depth of JSON, JSON-LD, XML and YAML, and
// columns per CSV row. Each is read from its environment variable (lib/process/config.ts), set far
// above anything a lab produces, and refused with a DomainError whose detail names the limit,
// its value and its variable. The checks are linear scans without recursion, run before any
// parser that recurses per level or slows down with depth sees the text.
import { intSetting } from './process/config.ts';
import { DomainError, type ErrorKind } from './process/errors.ts';
import { count } from './process/counters.ts';

export const DEPTH_VARIABLE = 'LABLD_MAX_DEPTH';
export const COLUMNS_VARIABLE = 'LABLD_MAX_COLUMNS';

/** Deepest nesting accepted in JSON, JSON-LD, XML and YAML documents. */
export function maxDepth(env: NodeJS.ProcessEnv = process.env): number {
  return intSetting(DEPTH_VARIABLE, env);
}

/** Most columns accepted in one CSV row. */
export function maxColumns(env: NodeJS.ProcessEnv = process.env): number {
  return intSetting(COLUMNS_VARIABLE, env);
}

/** A refusal by one of these limits (so code that swallows parse errors can let it through). */
export class LimitError extends DomainError {
  constructor(kind: ErrorKind, detail: string, field: string | undefined) {
    super(kind, detail, field);
    this.name = 'LimitError';
  }
}

/** Invalid: `what` (a field, a property of one, a source) nests deeper than the limit. */
export function tooDeep(field: string | undefined, limit: number, what = field ?? 'document'): LimitError {
  return new LimitError('invalid', `${what}: nested deeper than ${limit} levels (${DEPTH_VARIABLE})`, field);
}

/** Too large: a CSV row wider than the limit (`where` says which row of which file). */
export function tooWide(field: string | undefined, limit: number, where: string): LimitError {
  return new LimitError(
    'too-large',
    `${field === undefined ? '' : `${field}: `}${where} has more than ${limit} columns (${COLUMNS_VARIABLE})`,
    field,
  );
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/**
 * Where JSON text nests deeper than `limit`: `{ key }` with the top-level property it happens
 * under (when the text is an object), or undefined when it does not. Brackets inside strings
 * do not count; the text need not be valid JSON (JSON.parse judges that afterwards).
 */
export function jsonDepthExcess(text: string, limit: number): { key: string | undefined } | undefined {
  let depth = 0;
  let topIsObject = false;
  let key: string | undefined;
  let expectKey = false; // at depth 1 of an object, after `{` or `,`
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      // Skip the string: up to the next quote not escaped by an odd run of backslashes.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      if (expectKey && depth === 1) {
        key = readKey(text.slice(start, i + 1));
        expectKey = false;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === 0) topIsObject = c === OPEN_OBJECT;
      if (++depth > limit) return { key: topIsObject ? key : undefined };
      if (depth === 1) expectKey = topIsObject;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    } else if (c === COMMA && depth === 1) {
      expectKey = topIsObject;
    }
  }
  return undefined;
}

function readKey(literal: string): string | undefined {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return undefined;
  }
}

/**
 * Refuses JSON text nesting deeper than the limit: an invalid error naming `field`, or with `useKey` the
 * top-level property it happens under (a request body's `x`).
 */
export function checkJsonDepth(text: string, field: string, limit = maxDepth(), useKey = false): void {
  const excess = jsonDepthExcess(text, limit);
  if (!excess) return;
  const key = useKey ? excess.key : undefined;
  throw key === undefined ? tooDeep(field, limit) : tooDeep(key, limit);
}

/**
 * JSON.parse after the depth check; JSON.parse's own errors are left to the caller. `what`
 * names the document in the detail when it is not a request field (an RML source).
 */
/**
 * A parser's message without the document's words: parsers quote the offending token (n3:
 * `Unexpected "…" on line 3.`, V8's JSON: `"…"... is not valid JSON`), and a fetched document
 * must never come back in an error (a URL naming an internal page would read it out). V8 quotes
 * grammar in single quotes (`Expected ',' or '}'`), which stays; so do the line and position.
 */
export function unquoted(message: string): string {
  return message.replace(/"(?:[^"\\]|\\.){2,}"(?:\.\.\.)?/g, '…');
}

/** JSON.parse within the depth limit; a syntax error says where, without the text (`unquoted`). */
export function parseJson(text: string, field: string | undefined, what?: string): unknown {
  const limit = maxDepth();
  count('parse.json');
  if (jsonDepthExcess(text, limit)) throw tooDeep(field, limit, what);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw error instanceof SyntaxError ? new SyntaxError(unquoted(error.message)) : error;
  }
}

/**
 * Refuses a value nested deeper than the limit, walking it without recursion (for values
 * built in memory, which no text scan saw, before JSON.stringify recurses into them).
 */
export function checkValueDepth(value: unknown, field: string, limit = maxDepth()): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > limit) throw tooDeep(field, limit);
    const children = Array.isArray(item) ? item : Object.values(item as Record<string, unknown>);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const APOSTROPHE = 0x27;

/**
 * Refuses XML with a document type declaration (internal entities would be expanded, external
 * ones fetched) and XML whose elements nest deeper than the limit, in one linear pass over the
 * tags. Comments, CDATA sections and processing instructions are skipped; malformed markup is
 * left to the parser.
 */
export function checkXml(
  text: string,
  field: string | undefined,
  what = field ?? 'document',
  limit = maxDepth(),
): void {
  let depth = 0;
  let i = text.indexOf('<');
  while (i >= 0 && i < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next === BANG) {
      if (text.startsWith('<!--', i)) i = skipPast(text, '-->', i + 4);
      else if (text.startsWith('<![CDATA[', i)) i = skipPast(text, ']]>', i + 9);
      else throw dtd(field, what, text.slice(i, i + 10));
    } else if (next === QUESTION) {
      i = skipPast(text, '?>', i + 2);
    } else if (next === SLASH) {
      depth--;
      i = skipPast(text, '>', i + 2);
    } else {
      // A start tag: find its end outside attribute values (which may hold `>`).
      let j = i + 1;
      let quote = 0;
      for (; j < text.length; j++) {
        const c = text.charCodeAt(j);
        if (quote !== 0) {
          if (c === quote) quote = 0;
        } else if (c === QUOTE || c === APOSTROPHE) quote = c;
        else if (c === GT || c === LT) break;
      }
      if (depth + 1 > limit) throw tooDeep(field, limit, what); // an empty element counts too
      if (text.charCodeAt(j) === GT && text.charCodeAt(j - 1) !== SLASH) depth++;
      i = text.charCodeAt(j) === GT ? j + 1 : j;
    }
    i = text.indexOf('<', i);
  }
}

function skipPast(text: string, end: string, from: number): number {
  const at = text.indexOf(end, from);
  return at < 0 ? text.length : at + end.length;
}

function dtd(field: string | undefined, what: string, start: string): LimitError {
  const found = start.startsWith('<!DOCTYPE') ? 'a document type declaration (<!DOCTYPE …>)' : `"${start}…"`;
  return new LimitError(
    'invalid',
    `${what}: the XML has ${found}; DTDs are refused (their entities would be expanded or fetched)`,
    field,
  );
}

/**
 * The limit for js-yaml's own `maxDepth` option, and the invalid error for its depth error: js-yaml
 * counts nesting while it reads (without recursing past it), so no pre-scan is needed.
 */
export function yamlDepthError(error: unknown, field: string, limit: number): DomainError | undefined {
  const message = error instanceof Error ? error.message : '';
  return message.startsWith('nesting exceeded maxDepth') ? tooDeep(field, limit) : undefined;
}
