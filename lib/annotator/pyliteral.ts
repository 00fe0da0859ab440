// Emulates Python's `ast.literal_eval` far enough to type a CSV cell the way the original
// annotator does: it distinguishes a literal (int, float, bool, other), a valid expression
// that is not a literal ("ValueError": the cell is TEXT) and text that is not Python at all
// ("SyntaxError": the cell may still be a date or a URI). Cells are short, so a small
// tokenizer plus a recursive-descent parser over Python's expression grammar is enough.
import { Parser, type Node } from './pyparser.ts';
import { PySyntaxError, tokenize } from './pytokens.ts';

export type LiteralKind = 'int' | 'float' | 'bool' | 'other';
export type LiteralResult = { kind: LiteralKind; value?: number | boolean } | 'value-error' | 'syntax-error';

// literal_eval's evaluation: constants, a sign on a number, complex sums, containers of those.
function evaluate(node: Node): { kind: LiteralKind; value?: number | boolean } {
  switch (node.t) {
    case 'const':
      if (node.kind === 'int' || node.kind === 'float' || node.kind === 'bool') {
        return node.value === undefined ? { kind: node.kind } : { kind: node.kind, value: node.value };
      }
      return { kind: 'other' };
    case 'unary': {
      const operand = node.operand;
      const numeric = operand.t === 'const' && ['int', 'float', 'complex'].includes(operand.kind);
      if ((node.op === '+' || node.op === '-') && numeric && operand.t === 'const') {
        if (operand.kind === 'complex') return { kind: 'other' };
        const value = typeof operand.value === 'number' && node.op === '-' ? -operand.value : operand.value;
        return value === undefined
          ? { kind: operand.kind as LiteralKind }
          : { kind: operand.kind as LiteralKind, value };
      }
      throw new Error('malformed');
    }
    case 'binop': {
      const left = node.left;
      const right = node.right;
      const leftNum =
        (left.t === 'const' && (left.kind === 'int' || left.kind === 'float')) ||
        (left.t === 'unary' && left.operand.t === 'const' && ['int', 'float'].includes(left.operand.kind));
      if (
        (node.op === '+' || node.op === '-') &&
        leftNum &&
        right.t === 'const' &&
        right.kind === 'complex'
      ) {
        if (left.t === 'unary') evaluate(left);
        return { kind: 'other' };
      }
      throw new Error('malformed');
    }
    case 'container':
      for (const item of node.items) evaluate(item);
      return { kind: 'other' };
    default:
      throw new Error('malformed');
  }
}

/** What `ast.literal_eval(text)` does with `text` (already stripped by the caller). */
export function literalEval(text: string): LiteralResult {
  let node: Node;
  try {
    node = new Parser(tokenize(text.replace(/^[ \t]+/, ''))).parseEval();
  } catch (error) {
    if (error instanceof PySyntaxError || error instanceof RangeError) return 'syntax-error';
    throw error;
  }
  try {
    return evaluate(node);
  } catch {
    return 'value-error';
  }
}
