// XML logical sources (reference formulation XPath): the document is parsed once per run by
// @xmldom/xmldom and iterated with XPath 1.0 (the `xpath` package); references are XPath
// expressions relative to the iteration node. Namespaces come from the mapping's described
// reference formulation (`rml:namespace [ rml:namespacePrefix; rml:namespaceURL ]`).
import { DOMParser } from '@xmldom/xmldom';
import { createRequire } from 'node:module';
import { checkXml } from '../limits.ts';
import { expressionError, placed, sourceError } from './errors.ts';
import type { LogicalSource } from './model.ts';
import {
  cachedDocument,
  feedItems,
  readSourceText,
  type DocumentCache,
  type Evaluator,
  type SourceOptions,
  type SourceReader,
  type Value,
  where,
} from './sources.ts';

interface XPathResult {
  toArray?(): XmlNode[];
  stringValue(): string;
}

interface ParsedXPath {
  evaluate(options: { node: unknown; namespaces: Record<string, string> }): XPathResult;
}

// Loaded untyped: its declarations pull the DOM library into every file's types. Its `parse`
// compiles an expression once (`select` would re-parse it for every record).
const { parse: parseXPath } = createRequire(import.meta.url)('xpath') as {
  parse(expression: string): ParsedXPath;
};

/** The parts of xmldom's nodes read here. */
interface XmlNode {
  nodeType: number;
  value?: string;
  data?: string;
  textContent: string | null;
}

const ATTRIBUTE = 2;
const TEXT = 3;
const CDATA = 4;

function compile(expression: string, namespaces: Record<string, string>): ParsedXPath {
  let parsed: ParsedXPath;
  try {
    parsed = parseXPath(expression);
  } catch (error) {
    throw expressionError({ expression, reason: `is not valid XPath 1.0${xpathProblem(error)}` });
  }
  // Checked now, so the error names its field: evaluation would only fail on the first record.
  const unknown = prefixes(expression).find((prefix) => !Object.hasOwn(namespaces, prefix));
  if (unknown !== undefined) throw expressionError({ expression, reason: undeclared(unknown) });
  return parsed;
}

const undeclared = (prefix: string) =>
  `uses the prefix "${prefix}", which no rml:namespace of the logical source declares`;

/** The namespace prefixes of QNames in an XPath (`q:force`; not axes `child::`, not strings). */
function prefixes(expression: string): string[] {
  const code = expression.replace(/"[^"]*"|'[^']*'/g, '""');
  return [...code.matchAll(/(?<![\w.:-])([A-Za-z_][\w.-]*):(?=[A-Za-z_*])/g)].map((m) => m[1]!);
}

/**
 * The xpath package's complaint in words: its parser only says "XPath parse error" (nothing
 * to add), and an undeclared prefix is "Cannot resolve QName".
 */
function xpathProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const qname = /^Cannot resolve QName (.*)$/.exec(message);
  if (qname) return `: it ${undeclared(qname[1]!)}`;
  if (message === '' || message === 'XPath parse error') return '';
  return `: ${message.replace(/\.$/, '')}`;
}

function nodeValue(node: XmlNode): string {
  if (node.nodeType === ATTRIBUTE) return node.value ?? '';
  if (node.nodeType === TEXT || node.nodeType === CDATA) return node.data ?? '';
  return node.textContent ?? '';
}

export class XmlReader implements SourceReader {
  readonly source: LogicalSource;
  private readonly options: SourceOptions;
  private readonly cache: DocumentCache;
  private readonly namespaces: Record<string, string>;
  private readonly iterator: ParsedXPath;

  constructor(source: LogicalSource, options: SourceOptions, cache: DocumentCache) {
    this.source = source;
    this.options = options;
    this.cache = cache;
    this.namespaces = source.namespaces ?? {};
    this.iterator = placed({ field: 'rml:iterator' }, () =>
      compile(source.iterator ?? '/*', this.namespaces),
    );
  }

  private evaluate(parsed: ParsedXPath, node: unknown, expression: string): XPathResult {
    try {
      return parsed.evaluate({ node, namespaces: this.namespaces });
    } catch (error) {
      const problem = xpathProblem(error);
      throw expressionError({
        expression,
        reason: `cannot be evaluated${problem}`,
      });
    }
  }

  reference(expression: string): Evaluator {
    const parsed = compile(expression, this.namespaces);
    return (node) => {
      const result = this.evaluate(parsed, node, expression);
      if (!result.toArray) return result.stringValue();
      const values: Value[] = result.toArray().map(nodeValue);
      return values.length === 0 ? null : values.length === 1 ? values[0]! : values;
    };
  }

  async forEach(each: (record: unknown) => void, pause?: () => Promise<void> | void): Promise<void> {
    const key = JSON.stringify(['xml', this.source.access, this.source.encoding]);
    const document = await cachedDocument(this.cache, key, () => this.load());
    const result = placed({ field: 'rml:iterator' }, () =>
      this.evaluate(this.iterator, document, this.source.iterator ?? '/*'),
    );
    await feedItems(result.toArray?.() ?? [], each, pause);
  }

  private async load(): Promise<unknown> {
    const text = await readSourceText(this.source, this.options);
    // Before xmldom builds the tree: no DTD (entities), no nesting past LABLD_MAX_DEPTH.
    checkXml(text, undefined, `The source ${where(this.source)}`);
    const errors: string[] = [];
    let document: unknown;
    try {
      document = new DOMParser({
        onError: (level, message) => {
          if (level !== 'warning') errors.push(message);
        },
      }).parseFromString(text, 'text/xml');
    } catch (error) {
      errors.push((error as Error).message); // xmldom throws on fatal errors
    }
    if (errors.length > 0) throw sourceError(`The source is not well-formed XML: ${errors[0]}`);
    return document;
  }
}
