// What a dataset id, a graph IRI and a graph format must be, checked alike by both stores
// before anything is stored or sent.
import { invalid, unsupported } from '../process/errors.ts';
import { GRAPH_FORMATS, type GraphFormat } from './contract.ts';

/** CKAN's dataset ids and names: lower-case letters, digits, `-` and `_` (UUIDs included). */
const DATASET_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
/** Characters an IRI reference may not hold (RFC 3987 excludes them; Turtle cannot write them). */
const NOT_IN_IRI = new Set([...'<>"{}|^`\\ \t\n\r']);
const RESERVED = ['urn:labld:', 'urn:x-arq:'];

export function checkDatasetId(id: string): string {
  if (typeof id !== 'string' || !DATASET_ID.test(id)) {
    throw invalid('dataset_id: must be 1 to 100 letters, digits, - or _ (a CKAN dataset id)', 'dataset_id');
  }
  return id;
}

/** An absolute IRI of at most 2000 characters that SPARQL and Turtle can write between `<` and `>`. */
export function isWritableIri(iri: unknown): iri is string {
  return (
    typeof iri === 'string' &&
    iri.length <= 2000 &&
    URL.canParse(iri) &&
    ![...iri].some((c) => NOT_IN_IRI.has(c) || c.charCodeAt(0) < 0x20)
  );
}

export function checkGraphIri(iri: string): string {
  if (!isWritableIri(iri))
    throw invalid("graph: must be an absolute IRI (the resource's download URL)", 'graph');
  if (RESERVED.some((prefix) => iri.startsWith(prefix)))
    throw invalid(`graph: <${iri}> is reserved`, 'graph');
  return iri;
}

export function checkFormat(format: string): GraphFormat {
  if (!(GRAPH_FORMATS as readonly string[]).includes(format)) {
    throw unsupported(`format: ${format} cannot be loaded (one of ${GRAPH_FORMATS.join(', ')})`, 'format');
  }
  return format as GraphFormat;
}

/** RFC 3987 §2.2, absolute IRIs: what SPARQL stores (oxigraph, Jena) accept between `<` and `>`. */
const RFC3987 = ((): RegExp => {
  const sub = "[!$&'()*+,;=]";
  const pct = '%[0-9A-Fa-f]{2}';
  // ucschar: planes 1 to 13 but their last two code points, then plane 14 from U+E1000.
  const planes = Array.from({ length: 13 }, (_, i) => i + 1)
    .map((p) => `\\u{${p.toString(16)}0000}-\\u{${p.toString(16)}FFFD}`)
    .join('');
  const ucs = `\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}${planes}\\u{E1000}-\\u{EFFFD}`;
  const unreserved = `[A-Za-z0-9\\-._~${ucs}]`;
  const pchar = `(?:${unreserved}|${pct}|${sub}|[:@])`;
  const octet = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
  const ipv4 = `${octet}(?:\\.${octet}){3}`;
  // IPv6 and IPvFuture literals, loosely: hex digits, colons and dots between brackets.
  const literal = "\\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\\.[A-Za-z0-9\\-._~!$&'()*+,;=:]+)\\]";
  const host = `(?:${literal}|${ipv4}|(?:${unreserved}|${pct}|${sub})*)`;
  const authority = `(?:(?:${unreserved}|${pct}|${sub}|:)*@)?${host}(?::[0-9]*)?`;
  const segment = `${pchar}*`;
  const hier = `(?://${authority}(?:/${segment})*|/(?:${pchar}+(?:/${segment})*)?|${pchar}+(?:/${segment})*|)`;
  const query = `(?:${pchar}|[\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}/?])*`;
  const fragment = `(?:${pchar}|[/?])*`;
  return new RegExp(`^[A-Za-z][A-Za-z0-9+\\-.]*:${hier}(?:\\?${query})?(?:#${fragment})?$`, 'u');
})();

/** An absolute IRI by RFC 3987, at most 2000 characters: one a query may name whatever the store. */
export function isStrictIri(iri: unknown): iri is string {
  return typeof iri === 'string' && iri.length <= 2000 && RFC3987.test(iri);
}
