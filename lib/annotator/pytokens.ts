// Python's tokenizer, for the literal classifier (pyliteral.ts): names, numbers (with
// Python's literal grammar), strings with prefixes, operators; a SyntaxError as Python's.

export type LiteralKind = 'int' | 'float' | 'bool' | 'other';
export type LiteralResult = { kind: LiteralKind; value?: number | boolean } | 'value-error' | 'syntax-error';

export interface Token {
  type: 'name' | 'num' | 'str' | 'op' | 'end';
  text: string;
  value?: number;
  numKind?: 'int' | 'float' | 'complex';
}

export class PySyntaxError extends Error {}

export const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);
// prettier-ignore
const OPERATORS = [
  '**=', '//=', '>>=', '<<=', '...', '->', ':=', '**', '//', '<<', '>>', '<=', '>=', '==', '!=', '+=', '-=',
  '*=', '/=', '%=', '&=', '|=', '^=', '@=', '+', '-', '*', '/', '%', '@', '<', '>', '&', '|', '^', '~',
  '(', ')', '[', ']', '{', '}', ',', ':', '.', ';', '=',
];
const ID_START = /[\p{ID_Start}_]/u;
const ID_CONTINUE = /[\p{ID_Continue}_]/u;
const STRING_PREFIX = /^(?:[rRuUbBfF]|[fFbB][rR]|[rR][fFbB])?(?='|")/;

// Python number literal grammar (underscores between digits; no leading zeros in ints).
const DIGITS = '[0-9](?:_?[0-9])*';
const NUMBER = new RegExp(
  `(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|` +
    `(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.)(?:[eE][+-]?${DIGITS})?[jJ]?|` +
    `${DIGITS}[eE][+-]?${DIGITS}[jJ]?|${DIGITS}[jJ]|[1-9](?:_?[0-9])*|0(?:_?0)*)`,
  'y',
);

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let depth = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t' || c === '\f') {
      i++;
      continue;
    }
    if (c === '#') break; // a comment runs to the end of the cell
    if (c === '\n' || c === '\r') {
      if (depth > 0) {
        i++;
        continue;
      }
      throw new PySyntaxError('newline');
    }
    const prefix = STRING_PREFIX.exec(text.slice(i, i + 3));
    if (prefix) {
      i = readString(text, i + prefix[0].length, tokens, prefix[0]);
      continue;
    }
    if ((c >= '0' && c <= '9') || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) throw new PySyntaxError('number');
      const literal = m[0];
      const next = text[i + literal.length] ?? '';
      // `1605F`, `3h`: a number glued to a name is "invalid decimal literal".
      if (next && (ID_CONTINUE.test(next) || /[0-9]/.test(next))) throw new PySyntaxError('literal');
      tokens.push(numberToken(literal));
      i += literal.length;
      continue;
    }
    if (ID_START.test(c)) {
      let j = i + 1;
      while (j < text.length && ID_CONTINUE.test(text[j] as string)) j++;
      tokens.push({ type: 'name', text: text.slice(i, j) });
      i = j;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (!op) throw new PySyntaxError(`invalid character ${c}`);
    if (op === '(' || op === '[' || op === '{') depth++;
    if (op === ')' || op === ']' || op === '}') depth--;
    tokens.push({ type: 'op', text: op });
    i += op.length;
  }
  tokens.push({ type: 'end', text: '' });
  return tokens;
}

function readString(text: string, start: number, tokens: Token[], prefix: string): number {
  const quote = text[start] as string;
  const triple = text.startsWith(quote.repeat(3), start);
  const close = triple ? quote.repeat(3) : quote;
  let i = start + close.length;
  const raw = /[rR]/.test(prefix);
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (!triple && (c === '\n' || c === '\r')) break;
    if (text.startsWith(close, i)) {
      const body = text.slice(start + close.length, i);
      if (/[bB]/.test(prefix) && [...body].some((ch) => ch.charCodeAt(0) > 0x7f))
        throw new PySyntaxError('bytes');
      tokens.push({ type: 'str', text: raw ? 'raw' : 'str' });
      return i + close.length;
    }
    i++;
  }
  throw new PySyntaxError('unterminated string');
}

function numberToken(literal: string): Token {
  const clean = literal.replace(/_/g, '');
  if (/[jJ]$/.test(clean)) return { type: 'num', text: literal, numKind: 'complex' };
  if (/^0[xXoObB]/.test(clean)) {
    return { type: 'num', text: literal, numKind: 'int', value: Number(clean.toLowerCase()) };
  }
  if (/[.eE]/.test(clean)) return { type: 'num', text: literal, numKind: 'float', value: Number(clean) };
  return { type: 'num', text: literal, numKind: 'int', value: Number(clean) };
}
