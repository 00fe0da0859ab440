// HTTP Basic credentials (RFC 7617) read from an Authorization header: the openBIS login the
// extractor passes on, and the SPARQL endpoints' user name with a password or an API token.
import { unauthorized } from './process/errors.ts';

export interface BasicCredentials {
  user: string;
  password: string;
}

/** `Basic <base64 of user:password>` read, or undefined for another scheme; a broken one is `unauthorized` naming `field`. */
export function basicCredentials(header: string | undefined, field: string): BasicCredentials | undefined {
  const match = /^basic\s+(\S*)\s*$/i.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const value = match[1] ?? '';
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
    throw unauthorized(`${field}: Basic credentials are not base64`, field);
  }
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw unauthorized(`${field}: Basic credentials must be user:password`, field);
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
