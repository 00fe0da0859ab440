// IRIs a client writes in a query or body (types, predicate): full IRIs, or `prefix:name` with
// a prefix the mapper knows. Anything else is named back to the client as a 400.
import { malformed } from '../process/errors.ts';
import { KNOWN_PREFIXES } from './vocab.ts';

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s;
// RFC 3987 excludes these from every IRI; a space usually means two values run together.
const NOT_IN_IRI = /[\s<>"{}|\\^`]/;
// Schemes taken as full IRIs when they are not a known prefix.
const IRI_SCHEMES = new Set(['http', 'https', 'urn', 'tag', 'info', 'mailto', 'ftp', 'file', 'did']);

const shown = (value: string) => JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…` : value);

/** `value` as a full IRI, expanding `prefix:name` with `prefixes` (the known ones by default). */
export function expandIri(
  value: string,
  field: string,
  prefixes: Readonly<Record<string, string>> = KNOWN_PREFIXES,
): string {
  const known = () => Object.keys(prefixes).sort().join(', ');
  if (NOT_IN_IRI.test(value)) {
    throw malformed(
      `${field}: ${shown(value)} is not an IRI (it holds a space or one of <>"{}|\\^\`)`,
      field,
    );
  }
  const match = SCHEME.exec(value);
  if (!match) {
    throw malformed(
      `${field}: ${shown(value)} is not an IRI; give a full IRI (http://…) or prefix:name with one of ${known()}`,
      field,
    );
  }
  const [, prefix = '', rest = ''] = match;
  const namespace = Object.hasOwn(prefixes, prefix) ? prefixes[prefix] : undefined;
  if (namespace !== undefined && !rest.startsWith('//')) return namespace + rest;
  if (IRI_SCHEMES.has(prefix.toLowerCase())) return value;
  throw malformed(
    `${field}: ${shown(value)} has an unknown prefix or scheme "${prefix}"; give a full IRI (http://…) or one of the prefixes ${known()}`,
    field,
  );
}

/** The part of an IRI after its last `/`, `#` or `:` — MapToMethod's entity name. */
export function localName(iri: string): string {
  return iri.slice(Math.max(iri.lastIndexOf('/'), iri.lastIndexOf('#'), iri.lastIndexOf(':')) + 1);
}
