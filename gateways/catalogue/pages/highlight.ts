// Syntax highlighting of a page of a file's lines, on the server, by Prism's tokenizer (prismjs:
// Turtle, JSON, YAML, XML and CSV grammars; no script reaches the browser). The page's lines are
// tokenized together, so a token that spans lines (a long string) is coloured on each of them;
// a page that starts inside such a token is read as if it did not (the page is a window).
import Prism, { type Token } from 'prismjs';
import 'prismjs/components/prism-turtle.js';
import 'prismjs/components/prism-json.js';
import 'prismjs/components/prism-yaml.js';
import 'prismjs/components/prism-csv.js';
import { escapeHtml } from '../html.ts';

/** The grammars by file extension; another file is shown as plain text. */
const BY_EXTENSION: Record<string, string> = {
  ttl: 'turtle',
  nt: 'turtle',
  nq: 'turtle',
  n3: 'turtle',
  trig: 'turtle',
  jsonld: 'json',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  rdf: 'markup',
  owl: 'markup',
  xml: 'markup',
  csv: 'csv',
};

/** The grammar of a file of that name, or undefined for plain text. */
export function languageOf(fileName: string): string | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return BY_EXTENSION[extension];
}

type Piece = { text: string; classes: string };

function flatten(tokens: (string | Token)[], classes: string, out: Piece[]): void {
  for (const token of tokens) {
    if (typeof token === 'string') {
      out.push({ text: token, classes });
      continue;
    }
    const alias = token.alias === undefined ? [] : [token.alias].flat();
    const own = [`tok-${token.type}`, ...alias.map((a) => `tok-${a}`)].join(' ');
    const content = token.content;
    flatten(typeof content === 'string' ? [content] : Array.isArray(content) ? content : [content], own, out);
  }
}

/** Each line as HTML: escaped text, tokens in `<span class="tok-…">`, never a span across lines. */
export function highlightLines(lines: readonly string[], language: string | undefined): string[] {
  const grammar = language ? Prism.languages[language] : undefined;
  if (!grammar) return lines.map((line) => escapeHtml(line));
  const pieces: Piece[] = [];
  flatten(Prism.tokenize(lines.join('\n'), grammar), '', pieces);
  const out: string[] = [''];
  for (const piece of pieces) {
    piece.text.split('\n').forEach((part, i) => {
      if (i > 0) out.push('');
      if (part === '') return;
      const html = escapeHtml(part);
      out[out.length - 1] += piece.classes ? `<span class="${piece.classes}">${html}</span>` : html;
    });
  }
  return out;
}
