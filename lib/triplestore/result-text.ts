// A query's result as the text a store wrote, in the media type the client asked for (issue 27:
// written once, never parsed and written again on its way): which types a store writes itself,
// and how many rows or triples a text holds for LABLD_SPARQL_MAX_RESULTS, counted by scanning its
// characters — no JSON.parse, no RDF parser, no row objects. Loaded by the store's threads, so it
// imports nothing heavy (lib/rdf is results.ts's); the types themselves are lib/contracts'.

import { JSON_LD, NTRIPLES, RESULT_TYPES, TURTLE } from '../contracts/result-types.ts';

export {
  GRAPH_MEDIA_TYPES,
  JSON_LD,
  NTRIPLES,
  RESULT_TYPES,
  TABLE_TYPES,
  TURTLE,
  type GraphType,
  type TableType,
} from '../contracts/result-types.ts';

/** Each table type a client may ask for, as the SPARQL results format a store writes for it. */
const TABLE_WRITTEN: Record<string, string> = {
  [RESULT_TYPES.json]: RESULT_TYPES.json,
  'application/json': RESULT_TYPES.json,
  [RESULT_TYPES.xml]: RESULT_TYPES.xml,
  'application/xml': RESULT_TYPES.xml,
  [RESULT_TYPES.csv]: RESULT_TYPES.csv,
  [RESULT_TYPES.tsv]: RESULT_TYPES.tsv,
};

/** The SPARQL results format a store writes for table type `asked` (default SPARQL JSON). */
export function tableFormat(asked: string | undefined): string {
  return TABLE_WRITTEN[asked ?? RESULT_TYPES.json] ?? RESULT_TYPES.json;
}

/** Whether two media types name the same text (an alias: application/json is SPARQL JSON). */
export function sameText(a: string, b: string): boolean {
  return a === b || (TABLE_WRITTEN[a] !== undefined && TABLE_WRITTEN[a] === TABLE_WRITTEN[b]);
}

/**
 * A SELECT result as a store wrote it in `format` (tableFormat's for `asked`), as labld serves
 * it: TSV with its literals in full, its rows counted, under the type the client asked for
 * when that names the same text.
 */
export function tableText(
  written: string,
  format: string,
  asked: string | undefined,
): { mediaType: string; rows: number; text: string } {
  const text = format === RESULT_TYPES.tsv ? tsvInFull(written) : written;
  return {
    mediaType: asked && sameText(asked, format) ? asked : format,
    rows: countRows(text, format),
    text,
  };
}

/**
 * The graph types whose triples `countTriples` counts in the embedded store's text: N-Triples,
 * and Turtle and JSON-LD as oxigraph writes them. A store writes any other graph type asked for
 * as N-Triples, which the gateway's render thread then writes in that type: RDF/XML, which
 * oxigraph writes unreadable for a predicate it cannot split (`<oxprefix: …>` for `urn:p:`).
 */
export function graphFormat(asked: string | undefined): string {
  return asked === TURTLE || asked === JSON_LD ? asked : NTRIPLES;
}

/** Rows of a SELECT result written in SPARQL JSON, XML, CSV or TSV (`format`: tableFormat's). */
export function countRows(text: string, format: string): number {
  switch (format) {
    case RESULT_TYPES.xml:
      // Markup in values is escaped: every `<result>` opens a row.
      return occurrences(text, '<result>');
    case RESULT_TYPES.csv:
      return lineCount(text, true) - 1;
    case RESULT_TYPES.tsv:
      // TSV writes terms in SPARQL syntax, line breaks escaped: a line is a row.
      return lineCount(text, false) - 1;
    default:
      return depthFourObjects(text);
  }
}

/** Triples of a graph written in N-Triples, or oxigraph's Turtle or JSON-LD. */
export function countTriples(text: string, format: string): number {
  if (format === TURTLE) return turtleTriples(text);
  // oxigraph's JSON-LD is flat and expanded, `[ { "@id", "<p>": [ {value}, … ] }, … ]`: one value a triple.
  if (format === JSON_LD) return depthFourObjects(text);
  return ntriplesLines(text);
}

function occurrences(text: string, what: string): number {
  let n = 0;
  for (let i = text.indexOf(what); i !== -1; i = text.indexOf(what, i + what.length)) n++;
  return n;
}

/** Lines, the last one counted without its line break; in CSV a quoted value may hold line breaks. */
function lineCount(text: string, quoted: boolean): number {
  let lines = 0;
  if (!quoted || !text.includes('"')) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  } else {
    let inQuotes = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      // A doubled quote inside a quoted value toggles twice.
      if (c === 34) inQuotes = !inQuotes;
      else if (c === 10 && !inQuotes) lines++;
    }
  }
  return text.length > 0 && !text.endsWith('\n') ? lines + 1 : lines;
}

/**
 * The objects opened at depth 4 of a JSON text: the rows of SPARQL JSON, `{ "results": {
 * "bindings": [ {row}, … ] } }`, and the values of oxigraph's JSON-LD.
 */
function depthFourObjects(text: string): number {
  let depth = 0;
  let rows = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = stringEnd(text, i, '"');
    else if (c === 123 || c === 91) {
      depth++;
      if (depth === 4 && c === 123) rows++;
    } else if (c === 125 || c === 93) depth--;
  }
  return rows;
}

/** The index of the quote that closes the string opened at `start` (backslash escapes skipped). */
function stringEnd(text: string, start: number, quote: string): number {
  let i = start;
  for (;;) {
    i = text.indexOf(quote, i + 1);
    if (i === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(i - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
}

/** N-Triples: one triple a line; blank lines and comments are none. */
function ntriplesLines(text: string): number {
  let n = 0;
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    let i = start;
    while (i < stop && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i++;
    if (i < stop && text[i] !== '#') n++;
    start = stop + 1;
  }
  return n;
}

/**
 * Triples of Turtle as oxigraph's writer makes it: no prefixes, no nested blank nodes, each
 * object ended by `,`, `;` or a final ` .`. Those marks are counted outside strings and IRIs;
 * a `.` ends a statement only when whitespace or the end follows (never in `2.5` or `_:a.b`).
 */
function turtleTriples(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      const quote = text[i]!;
      const long = text.startsWith(quote.repeat(3), i);
      i = long ? stringEnd(text, i + 2, quote.repeat(3)) + 2 : stringEnd(text, i, quote);
    } else if (c === 60) {
      // `<<(` opens a triple term; `<` an IRI, which holds no `>`.
      if (text.charCodeAt(i + 1) === 60) i++;
      else {
        const end = text.indexOf('>', i);
        i = end === -1 ? text.length : end;
      }
    } else if (c === 44 || c === 59) n++;
    else if (c === 46) {
      const next = text.charCodeAt(i + 1);
      if (Number.isNaN(next) || next === 32 || next === 10 || next === 13 || next === 9) n++;
    }
  }
  return n;
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';
/** Turtle's bare forms of a literal, which SPARQL TSV allows and oxigraph and Fuseki write. */
const BARE: readonly (readonly [RegExp, string])[] = [
  [/^[+-]?\d+$/, 'integer'],
  [/^[+-]?\d*\.\d+$/, 'decimal'],
  [/^[+-]?(\d+\.\d*|\.\d+|\d+)[eE][+-]?\d+$/, 'double'],
  [/^(true|false)$/, 'boolean'],
];

/**
 * A TSV result with every literal written in full, `"1.5"^^<…#decimal>` for `1.5`, as labld's
 * TSV always was: users' scripts split a term on `"^^`. Only bare cells change (a term in
 * SPARQL syntax otherwise starts with `<`, `"` or `_:`), so the text is rewritten, not parsed.
 */
export function tsvInFull(text: string): string {
  if (!/(^|[\t\n])[+\-.\dtf]/.test(text)) return text;
  const lines = text.split('\n');
  // The first line is the header of variable names.
  for (let l = 1; l < lines.length; l++) {
    const line = lines[l]!;
    if (!/(^|\t)[+\-.\dtf]/.test(line)) continue;
    lines[l] = line
      .split('\t')
      .map((cell) => {
        const bare = BARE.find(([form]) => form.test(cell));
        return bare ? `"${cell}"^^<${XSD}${bare[1]}>` : cell;
      })
      .join('\t');
  }
  return lines.join('\n');
}
