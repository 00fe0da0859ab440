// Recursive descent over Python's expression grammar (eval mode): enough to tell a valid
// expression from a syntax error, building only the nodes literal_eval looks at.
import { KEYWORDS, PySyntaxError, type Token } from './pytokens.ts';

// AST just rich enough for literal_eval's rules.
export type Node =
  | {
      t: 'const';
      kind: 'int' | 'float' | 'complex' | 'str' | 'bool' | 'none' | 'ellipsis';
      value?: number | boolean;
    }
  | { t: 'unary'; op: string; operand: Node }
  | { t: 'binop'; op: string; left: Node; right: Node }
  | { t: 'container'; items: Node[] }
  | { t: 'other' };

const OTHER: Node = { t: 'other' };

export class Parser {
  private pos = 0;
  private readonly tokens: Token[];

  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)] as Token;
  }
  private isOp(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === 'op' && t.text === text;
  }
  private isKw(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.type === 'name' && t.text === text;
  }
  private next(): Token {
    return this.tokens[this.pos++] as Token;
  }
  private expectOp(text: string): void {
    if (!this.isOp(text)) throw new PySyntaxError(`expected ${text}`);
    this.pos++;
  }

  parseEval(): Node {
    const node = this.starExpressions();
    if (this.peek().type !== 'end') throw new PySyntaxError('trailing tokens');
    return node;
  }

  // expression (',' expression)* [','] — a tuple when a comma appears.
  private starExpressions(): Node {
    const first = this.starExpression();
    if (!this.isOp(',')) return first;
    const items = [first];
    while (this.isOp(',')) {
      this.pos++;
      if (this.atExpressionEnd()) break;
      items.push(this.starExpression());
    }
    return { t: 'container', items };
  }

  private atExpressionEnd(): boolean {
    const t = this.peek();
    return t.type === 'end' || (t.type === 'op' && [')', ']', '}', ':', '='].includes(t.text));
  }

  private starExpression(): Node {
    if (this.isOp('*')) {
      this.pos++;
      this.bitOr();
      return OTHER;
    }
    return this.namedExpression();
  }

  private namedExpression(): Node {
    if (this.peek().type === 'name' && !KEYWORDS.has(this.peek().text) && this.isOp(':=', 1)) {
      this.pos += 2;
      this.expression();
      return OTHER;
    }
    return this.expression();
  }

  private expression(): Node {
    if (this.isKw('lambda')) return this.lambda();
    const node = this.disjunction();
    if (this.isKw('if')) {
      this.pos++;
      this.disjunction();
      if (!this.isKw('else')) throw new PySyntaxError('expected else');
      this.pos++;
      this.expression();
      return OTHER;
    }
    return node;
  }

  private lambda(): Node {
    this.pos++;
    while (!this.isOp(':')) {
      const t = this.next();
      if (t.type === 'end') throw new PySyntaxError('lambda');
      if (t.type === 'op' && t.text === '=') this.expression();
      else if (
        !(t.type === 'name' && !KEYWORDS.has(t.text)) &&
        !(t.type === 'op' && [',', '*', '**', '/'].includes(t.text))
      )
        throw new PySyntaxError('lambda parameter');
    }
    this.pos++;
    this.expression();
    return OTHER;
  }

  private disjunction(): Node {
    let node = this.conjunction();
    while (this.isKw('or')) {
      this.pos++;
      this.conjunction();
      node = OTHER;
    }
    return node;
  }

  private conjunction(): Node {
    let node = this.inversion();
    while (this.isKw('and')) {
      this.pos++;
      this.inversion();
      node = OTHER;
    }
    return node;
  }

  private inversion(): Node {
    if (this.isKw('not')) {
      this.pos++;
      this.inversion();
      return OTHER;
    }
    return this.comparison();
  }

  private comparison(): Node {
    let node = this.bitOr();
    for (;;) {
      if (['==', '!=', '<', '<=', '>', '>='].some((op) => this.isOp(op)) || this.isKw('in')) this.pos++;
      else if (this.isKw('not') && this.isKw('in', 1)) this.pos += 2;
      else if (this.isKw('is')) this.pos += this.isKw('not', 1) ? 2 : 1;
      else return node;
      this.bitOr();
      node = OTHER;
    }
  }

  private binary(ops: string[], operand: () => Node): Node {
    let node = operand();
    while (ops.some((op) => this.isOp(op))) {
      const op = this.next().text;
      node = { t: 'binop', op, left: node, right: operand() };
    }
    return node;
  }

  private bitOr = (): Node => this.binary(['|'], this.bitXor);
  private bitXor = (): Node => this.binary(['^'], this.bitAnd);
  private bitAnd = (): Node => this.binary(['&'], this.shift);
  private shift = (): Node => this.binary(['<<', '>>'], this.sum);
  private sum = (): Node => this.binary(['+', '-'], this.term);
  private term = (): Node => this.binary(['*', '/', '//', '%', '@'], this.factor);

  private factor = (): Node => {
    if (this.isOp('+') || this.isOp('-') || this.isOp('~')) {
      const op = this.next().text;
      return { t: 'unary', op, operand: this.factor() };
    }
    return this.power();
  };

  private power(): Node {
    if (this.isKw('await')) this.pos++;
    const node = this.primary();
    if (this.isOp('**')) {
      this.pos++;
      this.factor();
      return OTHER;
    }
    return node;
  }

  private primary(): Node {
    let node = this.atom();
    for (;;) {
      if (this.isOp('.')) {
        this.pos++;
        const t = this.next();
        if (t.type !== 'name' || KEYWORDS.has(t.text)) throw new PySyntaxError('attribute');
        node = OTHER;
      } else if (this.isOp('(')) {
        this.pos++;
        this.callArguments();
        node = OTHER;
      } else if (this.isOp('[')) {
        this.pos++;
        this.slices();
        node = OTHER;
      } else return node;
    }
  }

  private callArguments(): void {
    while (!this.isOp(')')) {
      if (this.isOp('*') || this.isOp('**')) {
        this.pos++;
        this.expression();
      } else if (this.peek().type === 'name' && this.isOp('=', 1)) {
        this.pos += 2;
        this.expression();
      } else {
        this.namedExpression();
        if (this.isKw('for') || this.isKw('async')) this.comprehension();
      }
      if (!this.isOp(',')) break;
      this.pos++;
    }
    this.expectOp(')');
  }

  private slices(): void {
    for (;;) {
      if (this.isOp('*')) this.starExpression();
      else if (!this.isOp(':')) this.namedExpression();
      for (let part = 0; part < 2 && this.isOp(':'); part++) {
        this.pos++;
        if (!this.isOp(':') && !this.isOp(']') && !this.isOp(',')) this.expression();
      }
      if (!this.isOp(',')) break;
      this.pos++;
      if (this.isOp(']')) break;
    }
    this.expectOp(']');
  }

  private comprehension(): void {
    while (this.isKw('for') || this.isKw('async')) {
      if (this.isKw('async')) this.pos++;
      this.pos++; // for
      this.targetList();
      if (!this.isKw('in')) throw new PySyntaxError('expected in');
      this.pos++;
      this.disjunction();
      while (this.isKw('if')) {
        this.pos++;
        this.disjunction();
      }
    }
  }

  private targetList(): void {
    do {
      if (this.isOp(',')) this.pos++;
      if (this.isOp('*')) this.pos++;
      this.bitOr();
    } while (this.isOp(',') && !this.isKw('in', 1));
  }

  private atom(): Node {
    const t = this.next();
    if (t.type === 'num')
      return { t: 'const', kind: t.numKind ?? 'int', ...(t.value === undefined ? {} : { value: t.value }) };
    if (t.type === 'str') {
      while (this.peek().type === 'str') this.pos++; // implicit concatenation
      return { t: 'const', kind: 'str' };
    }
    if (t.type === 'name') {
      if (t.text === 'True' || t.text === 'False')
        return { t: 'const', kind: 'bool', value: t.text === 'True' };
      if (t.text === 'None') return { t: 'const', kind: 'none' };
      if (KEYWORDS.has(t.text)) throw new PySyntaxError(`keyword ${t.text}`);
      return OTHER;
    }
    if (t.type === 'op') {
      if (t.text === '...') return { t: 'const', kind: 'ellipsis' };
      if (t.text === '(') return this.parenthesised();
      if (t.text === '[') return this.bracketed(']');
      if (t.text === '{') return this.braced();
    }
    throw new PySyntaxError('unexpected token');
  }

  private parenthesised(): Node {
    if (this.isOp(')')) {
      this.pos++;
      return { t: 'container', items: [] };
    }
    if (this.isKw('yield')) throw new PySyntaxError('yield');
    const first = this.starExpression();
    if (this.isKw('for') || this.isKw('async')) {
      this.comprehension();
      this.expectOp(')');
      return OTHER;
    }
    if (this.isOp(')')) {
      this.pos++;
      return first; // parentheses make no node
    }
    const items = [first];
    while (this.isOp(',')) {
      this.pos++;
      if (this.isOp(')')) break;
      items.push(this.starExpression());
    }
    this.expectOp(')');
    return { t: 'container', items };
  }

  private bracketed(close: string): Node {
    const items: Node[] = [];
    if (!this.isOp(close)) {
      items.push(this.starExpression());
      if (this.isKw('for') || this.isKw('async')) {
        this.comprehension();
        this.expectOp(close);
        return OTHER;
      }
      while (this.isOp(',')) {
        this.pos++;
        if (this.isOp(close)) break;
        items.push(this.starExpression());
      }
    }
    this.expectOp(close);
    return { t: 'container', items };
  }

  private braced(): Node {
    if (this.isOp('}')) {
      this.pos++;
      return { t: 'container', items: [] };
    }
    const items: Node[] = [];
    const entry = (): void => {
      if (this.isOp('**')) {
        this.pos++;
        this.bitOr();
        items.push(OTHER);
        return;
      }
      const key = this.starExpression();
      items.push(key);
      if (this.isOp(':')) {
        this.pos++;
        items.push(this.expression());
      }
    };
    entry();
    if (this.isKw('for') || this.isKw('async')) {
      this.comprehension();
      this.expectOp('}');
      return OTHER;
    }
    while (this.isOp(',')) {
      this.pos++;
      if (this.isOp('}')) break;
      entry();
    }
    this.expectOp('}');
    return { t: 'container', items };
  }
}
