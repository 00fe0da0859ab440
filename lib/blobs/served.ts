// What a user's file may be served as: a media type read strictly (RFC 9110 `type/subtype` and
// parameters, so that no CR, LF or other header-breaking byte is ever stored or sent), the few
// types a browser shows without running anything (the rest is a download), and a file name
// bounded in UTF-8 bytes with its extension kept.

/** RFC 9110 `token`. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** A parameter's value: a token or a quoted string of visible ASCII, spaces and tabs. */
const VALUE = `(?:${TOKEN}|"(?:[\\t !#-\\[\\]-~]|\\\\[\\t -~])*")`;
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=${VALUE})*$`);

/** Whether `value` is a media type as a Content-Type header carries it (`text/csv; charset=utf-8`). */
export function isMediaType(value: string): boolean {
  return value.length <= 255 && MEDIA_TYPE.test(value);
}

/** The media type without parameters, lowercase (`text/csv`); `application/octet-stream` if malformed. */
export function essenceOf(value: string): string {
  return isMediaType(value)
    ? (value.split(';')[0] as string).trim().toLowerCase()
    : 'application/octet-stream';
}

/**
 * Types shown in the browser: text, data and raster images, none of which runs code or loads
 * anything. HTML, XML (and so XHTML and SVG), JavaScript, PDF (a viewer with scripts of its own)
 * and anything unknown are downloads.
 */
const INLINE = new Set([
  'text/plain',
  'text/csv',
  'text/tab-separated-values',
  'text/turtle',
  'text/n3',
  'application/n-triples',
  'application/n-quads',
  'application/trig',
  'application/json',
  'application/ld+json',
  'application/yaml',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
]);

/** Whether a file of this type may be shown inline from labld's origin. */
export function isInlineType(contentType: string): boolean {
  return INLINE.has(essenceOf(contentType));
}

/** Longest stored file name, in UTF-8 bytes (what most file systems allow for one name). */
export const MAX_FILE_NAME_BYTES = 255;

/** The longest prefix of `text` within `bytes` UTF-8 bytes, never half a character. */
function prefixOf(text: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    used += Buffer.byteLength(char);
    if (used > bytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}

/**
 * `name` cut to MAX_FILE_NAME_BYTES, deterministically: the stem is shortened and the extension
 * (up to 16 bytes) kept, so that a long `….csv` is still a CSV for the chain.
 */
export function boundedFileName(name: string): string {
  if (Buffer.byteLength(name) <= MAX_FILE_NAME_BYTES) return name;
  const extension = /\.[^.]{1,15}$/.exec(name)?.[0] ?? '';
  const keep = Buffer.byteLength(extension) <= 16 ? extension : '';
  const stem = name.slice(0, name.length - keep.length);
  return prefixOf(stem, MAX_FILE_NAME_BYTES - Buffer.byteLength(keep)) + keep;
}
