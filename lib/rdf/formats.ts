// The RDF formats table: the spec's eight `return_type` values plus N-Quads (used internally,
// e.g. for store snapshots), with the content type and file extension each is served with.
import { invalid } from '../process/errors.ts';

export const RETURN_TYPES = ['json-ld', 'n3', 'nt', 'hext', 'trig', 'turtle', 'longturtle', 'xml'] as const;

export type ReturnType = (typeof RETURN_TYPES)[number];

/** Every format the module reads and writes: the return types plus N-Quads. */
export type RdfFormat = ReturnType | 'nquads';

export interface FormatInfo {
  readonly format: RdfFormat;
  /** Media type for the Content-Type header. */
  readonly contentType: string;
  /** Download file extension, with the dot. */
  readonly extension: string;
  /** Other extensions seen for this format (first is the primary one). */
  readonly extensions: readonly string[];
  /** Whether named graphs survive; triple formats write the triples of every graph. */
  readonly quads: boolean;
}

function info(format: RdfFormat, contentType: string, extensions: string[], quads: boolean): FormatInfo {
  return Object.freeze({
    format,
    contentType,
    extension: extensions[0] ?? '',
    extensions: Object.freeze(extensions),
    quads,
  });
}

// Extensions: IANA's registered ones first; `.json` (CSVW descriptors) and `.xml` (the
// original annotator's downloads) are kept as alternatives.
export const FORMATS: Readonly<Record<RdfFormat, FormatInfo>> = Object.freeze({
  'json-ld': info('json-ld', 'application/ld+json', ['.jsonld', '.json'], true),
  n3: info('n3', 'text/n3', ['.n3'], false),
  nt: info('nt', 'application/n-triples', ['.nt'], false),
  hext: info('hext', 'application/hex+x-ndjson', ['.hext'], true),
  trig: info('trig', 'application/trig', ['.trig'], true),
  turtle: info('turtle', 'text/turtle', ['.ttl'], false),
  longturtle: info('longturtle', 'text/turtle', ['.ttl'], false),
  xml: info('xml', 'application/rdf+xml', ['.rdf', '.xml', '.owl'], false),
  nquads: info('nquads', 'application/n-quads', ['.nq'], true),
});

export function isReturnType(value: unknown): value is ReturnType {
  return typeof value === 'string' && (RETURN_TYPES as readonly string[]).includes(value);
}

export function isRdfFormat(value: unknown): value is RdfFormat {
  return typeof value === 'string' && Object.hasOwn(FORMATS, value);
}

/** Looks up a `return_type`; an unknown value is the client's fault (422 naming the field). */
export function returnTypeInfo(value: unknown, field = 'return_type'): FormatInfo {
  if (!isReturnType(value)) {
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    throw invalid(`${field}: unknown value ${shown}; allowed values are ${RETURN_TYPES.join(', ')}`, field);
  }
  return FORMATS[value];
}

/** Like returnTypeInfo but also accepts the internal `nquads`. */
export function formatInfo(value: unknown, field = 'return_type'): FormatInfo {
  return isRdfFormat(value) ? FORMATS[value] : returnTypeInfo(value, field);
}

const BY_MEDIA_TYPE: Readonly<Record<string, RdfFormat>> = {
  'application/ld+json': 'json-ld',
  'application/json': 'json-ld',
  'text/n3': 'n3',
  'text/rdf+n3': 'n3',
  'application/n-triples': 'nt',
  'application/hex+x-ndjson': 'hext',
  'application/x-ndjson': 'hext',
  'application/trig': 'trig',
  'text/turtle': 'turtle',
  'application/x-turtle': 'turtle',
  'application/rdf+xml': 'xml',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/n-quads': 'nquads',
};

/** Format for a Content-Type header value (parameters ignored), if it names an RDF format. */
export function formatFromContentType(contentType: string | undefined): RdfFormat | undefined {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return mediaType ? BY_MEDIA_TYPE[mediaType] : undefined;
}

/** Format for a file name or URL by its extension (query and fragment ignored). */
export function formatFromFileName(name: string | undefined): RdfFormat | undefined {
  const path = name?.split(/[?#]/)[0]?.toLowerCase() ?? '';
  const dot = path.lastIndexOf('.');
  if (dot < 0 || path.indexOf('/', dot) >= 0) return undefined;
  const extension = path.slice(dot);
  // longturtle shares `.ttl` with turtle; read as turtle (the same language).
  const found = Object.values(FORMATS).find(
    (f) => f.format !== 'longturtle' && f.extensions.includes(extension),
  );
  return found?.format;
}

// Formats written as text lines/terms rather than markup or JSON.
const TEXT_FAMILY: readonly RdfFormat[] = ['turtle', 'longturtle', 'trig', 'n3', 'nt', 'nquads'];

/**
 * Best guess of the format of a fetched document. The text decides between markup (RDF/XML),
 * JSON (JSON-LD, or hext when the first line is a six-string array) and the Turtle family,
 * because names can lie (the seed's `.rdf` files hold Turtle); within the Turtle family the
 * content type, then the file name, choose; the fallback is TriG, which also reads Turtle
 * and N-Triples.
 */
export function guessFormat(hints: { contentType?: string; name?: string; text?: string }): RdfFormat {
  const byType = formatFromContentType(hints.contentType);
  const byName = formatFromFileName(hints.name);
  const sniffed = hints.text === undefined ? undefined : sniffText(hints.text);
  if (sniffed) return sniffed;
  if (hints.text === undefined && (byType ?? byName)) return (byType ?? byName) as RdfFormat;
  if (byType && TEXT_FAMILY.includes(byType)) return byType;
  if (byName && TEXT_FAMILY.includes(byName)) return byName;
  return 'trig';
}

function sniffText(text: string): RdfFormat | undefined {
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (/^<(?:\?xml|!DOCTYPE|!--|[A-Za-z_][\w.-]*:RDF\b|RDF\b)/.test(head)) return 'xml';
  if (head.startsWith('{')) return 'json-ld';
  // `[` opens a JSON array but also a Turtle blank node (`[] a ex:T .`), so look further.
  if (!head.startsWith('[')) return undefined;
  const next = head.slice(1).trimStart();
  if (next.startsWith('{') || next === ']') return 'json-ld';
  if (!next.startsWith('"')) return undefined;
  try {
    const first: unknown = JSON.parse(head.split('\n', 1)[0] ?? '');
    const isHextLine =
      Array.isArray(first) && first.length === 6 && first.every((x) => typeof x === 'string');
    return isHextLine ? 'hext' : 'json-ld';
  } catch {
    return 'json-ld';
  }
}
