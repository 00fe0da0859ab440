// RDF terms as N-Triples strings. The engine never builds term objects in its hot path: a
// term is the exact text it will have in the output (`<iri>`, `_:label`, `"lex"^^<dt>`,
// `"lex"@lang`), built once per value. `lib/rml/sink.ts` turns them into RDF/JS terms when a
// consumer wants objects instead of text.
import { hasScheme, isLanguageTag, XSD_STRING } from '../rdf/vocab.ts';

export { hasScheme, isLanguageTag };

/** RFC 3987 iunreserved minus ucschar: the ASCII characters an IRI-safe value keeps. */
const SAFE_ASCII = /^[A-Za-z0-9\-._~]*$/;

function isUcschar(code: number): boolean {
  return (
    (code >= 0xa0 && code <= 0xd7ff) ||
    (code >= 0xf900 && code <= 0xfdcf) ||
    (code >= 0xfdf0 && code <= 0xffef) ||
    (code >= 0x10000 && code <= 0xefffd && (code & 0xfffe) !== 0xfffe)
  );
}

/** The IRI-safe version of a value (RML-Core: percent-encode all but iunreserved, as UTF-8). */
export function iriSafe(value: string): string {
  return percentEncode(value, true);
}

/** The URI-safe version (rml:URI term type): only unreserved ASCII is kept. */
export function uriSafe(value: string): string {
  return percentEncode(value, false);
}

function percentEncode(value: string, keepUcschar: boolean): string {
  if (SAFE_ASCII.test(value)) return value;
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (
      (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x30 && code <= 0x39) ||
      char === '-' ||
      char === '.' ||
      char === '_' ||
      char === '~' ||
      (keepUcschar && isUcschar(code))
    ) {
      out += char;
    } else {
      for (const byte of Buffer.from(char, 'utf8'))
        out += `%${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`;
    }
  }
  return out;
}

/** Characters RFC 3987 never allows in an IRI: controls, space and `<>"{}|\^` and backtick. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const FORBIDDEN = /[\u0000-\u0020<>"{}|\\^`]/;

/** Whether `value` is an absolute IRI that N-Triples can carry without escapes. */
export function isValidIri(value: string): boolean {
  return hasScheme(value) && !FORBIDDEN.test(value);
}

// eslint-disable-next-line no-control-regex -- see FORBIDDEN
const IRI_ESCAPE = /[\u0000-\u0020<>"{}|\\^`]/g;

/** `<iri>`; characters that IRIREF cannot hold (only possible for rml:UnsafeIRI) become \u escapes. */
export function iriTerm(iri: string): string {
  if (!FORBIDDEN.test(iri)) return `<${iri}>`;
  return `<${iri.replace(IRI_ESCAPE, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)}>`;
}

const LITERAL_SPECIAL = /["\\\n\r]/;
const LITERAL_ESCAPE = /["\\\n\r]/g;
const LITERAL_REPLACEMENT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r' };

/** Whether `"lexical"` is already its N-Triples literal (nothing in it to escape). */
export function isPlainLexical(lexical: string): boolean {
  return !LITERAL_SPECIAL.test(lexical);
}

function quoteLiteral(lexical: string): string {
  if (!LITERAL_SPECIAL.test(lexical)) return `"${lexical}"`;
  return `"${lexical.replace(LITERAL_ESCAPE, (c) => LITERAL_REPLACEMENT[c]!)}"`;
}

/** A literal term; `datatype` is an IRI (xsd:string is left implicit, as RDF 1.1 does). */
export function literalTerm(lexical: string, datatype?: string, language?: string): string {
  if (language) return `${quoteLiteral(lexical)}@${language}`;
  if (datatype && datatype !== XSD_STRING) return `${quoteLiteral(lexical)}^^${iriTerm(datatype)}`;
  return quoteLiteral(lexical);
}

const LABEL_SAFE = /^[A-Za-z0-9]+$/;

/**
 * A blank node named after a value. The label keeps letters and digits and writes every
 * other character as `_<hex>_`, so distinct values never share a label.
 */
export function blankTerm(value: string): string {
  if (LABEL_SAFE.test(value)) return `_:b${value}`;
  let label = '';
  for (const char of value) {
    label += /[A-Za-z0-9]/.test(char) ? char : `_${char.codePointAt(0)!.toString(16)}_`;
  }
  return `_:b${label}`;
}

/** The lexical form of a source value in a string context (templates, IRIs, function inputs). */
export function lexicalForm(value: string | number | boolean): string {
  return typeof value === 'string' ? value : String(value);
}
