// The headers of a file a user stored, wherever it is served (the annotator's stored files, the
// catalogue's downloads): its recorded type only when it is a well-formed media type (a stored
// bad value is served as bytes, never a 500 from Node's header check), no sniffing, a sandbox
// that keeps any script in it from running with labld's origin, and the name as RFC 6266 has it.
import { essenceOf, isInlineType, isMediaType } from '../../lib/blobs/served.ts';

/** No script, no plugin, no request of its own, no same-origin rights: the file is data. */
export const USER_FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

/** RFC 8187 `attr-char` is narrower than encodeURIComponent's unreserved set: `'()*!` are escaped too. */
function extValue(name: string): string {
  return encodeURIComponent(name).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * RFC 6266: `inline` or `attachment`, an ASCII fallback `filename` (no quote, backslash or `%`,
 * which some clients would decode) and the exact name as `filename*=UTF-8''…`.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${extValue(name)}`;
}

export interface UserFileHeaders {
  contentType: string;
  headers: Record<string, string>;
}

/**
 * How a user's file is sent: `attachment` unless its type is one a browser shows without running
 * anything and `inline` is allowed; always `nosniff` and the sandbox CSP.
 */
export function userFileHeaders(
  contentType: string,
  name: string,
  allow: 'inline' | 'attachment' = 'inline',
): UserFileHeaders {
  const safe = isMediaType(contentType) ? contentType : essenceOf(contentType);
  const kind = allow === 'inline' && isInlineType(safe) ? 'inline' : 'attachment';
  return {
    contentType: safe,
    headers: {
      'content-disposition': contentDisposition(kind, name),
      'x-content-type-options': 'nosniff',
      'content-security-policy': USER_FILE_CSP,
    },
  };
}
