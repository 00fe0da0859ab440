// Namespaces, the prefixes a CSVW metadata document may use (those of the CSVW context, read
// from the bundled copy), and the built-in datatypes with their derivation.
import { documentLoader } from '../rdf/index.ts';
import { RDF_NS, XSD } from '../rdf/vocab.ts';

export const CSVW = 'http://www.w3.org/ns/csvw#';
export { RDF_NS, RDFS, XSD } from '../rdf/vocab.ts';
export const CSVW_CONTEXT = 'http://www.w3.org/ns/csvw';

const context = (await documentLoader(CSVW_CONTEXT)).document as { '@context': Record<string, unknown> };

/** Prefix → namespace IRI, as the CSVW context defines them (dc, dcat, schema, xsd, …). */
export const PREFIXES: ReadonlyMap<string, string> = new Map(
  Object.entries(context['@context']).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && /[#/]$/.test(entry[1]),
  ),
);

/** Terms of the CSVW context that are classes or individuals (usable as bare `@type`). */
export const CSVW_TERMS: ReadonlySet<string> = new Set(
  Object.entries(context['@context'])
    .filter(([key, value]) => typeof value === 'string' && value.startsWith('csvw:') && /^[A-Z]/.test(key))
    .map(([key]) => key),
);

/** Expands `prefix:rest` with a known prefix; anything else comes back unchanged. */
export function expandPrefixed(value: string): string {
  const colon = value.indexOf(':');
  if (colon <= 0) return value;
  const namespace = PREFIXES.get(value.slice(0, colon));
  if (namespace === undefined || value.slice(colon + 1).startsWith('//')) return value;
  return namespace + value.slice(colon + 1);
}

/** Whether a string is a prefixed name with a known prefix. */
export function isPrefixedName(value: string): boolean {
  const colon = value.indexOf(':');
  return colon > 0 && PREFIXES.has(value.slice(0, colon)) && !value.slice(colon + 1).startsWith('//');
}

/** Whether a string is an absolute IRI (has a scheme). */
export { hasScheme as isAbsoluteIri } from '../rdf/vocab.ts';

// Built-in datatype name → [IRI, parent name]. The tree decides which lexical rules, formats
// and constraints apply (integer types are decimals, dateTimeStamp is a dateTime, …).
const TREE: Record<string, [string, string | undefined]> = {
  anyAtomicType: [XSD + 'anyAtomicType', undefined],
  anyURI: [XSD + 'anyURI', 'anyAtomicType'],
  base64Binary: [XSD + 'base64Binary', 'anyAtomicType'],
  boolean: [XSD + 'boolean', 'anyAtomicType'],
  date: [XSD + 'date', 'anyAtomicType'],
  dateTime: [XSD + 'dateTime', 'anyAtomicType'],
  dateTimeStamp: [XSD + 'dateTimeStamp', 'dateTime'],
  decimal: [XSD + 'decimal', 'anyAtomicType'],
  integer: [XSD + 'integer', 'decimal'],
  long: [XSD + 'long', 'integer'],
  int: [XSD + 'int', 'long'],
  short: [XSD + 'short', 'int'],
  byte: [XSD + 'byte', 'short'],
  nonNegativeInteger: [XSD + 'nonNegativeInteger', 'integer'],
  positiveInteger: [XSD + 'positiveInteger', 'nonNegativeInteger'],
  unsignedLong: [XSD + 'unsignedLong', 'nonNegativeInteger'],
  unsignedInt: [XSD + 'unsignedInt', 'unsignedLong'],
  unsignedShort: [XSD + 'unsignedShort', 'unsignedInt'],
  unsignedByte: [XSD + 'unsignedByte', 'unsignedShort'],
  nonPositiveInteger: [XSD + 'nonPositiveInteger', 'integer'],
  negativeInteger: [XSD + 'negativeInteger', 'nonPositiveInteger'],
  double: [XSD + 'double', 'anyAtomicType'],
  duration: [XSD + 'duration', 'anyAtomicType'],
  dayTimeDuration: [XSD + 'dayTimeDuration', 'duration'],
  yearMonthDuration: [XSD + 'yearMonthDuration', 'duration'],
  float: [XSD + 'float', 'anyAtomicType'],
  gDay: [XSD + 'gDay', 'anyAtomicType'],
  gMonth: [XSD + 'gMonth', 'anyAtomicType'],
  gMonthDay: [XSD + 'gMonthDay', 'anyAtomicType'],
  gYear: [XSD + 'gYear', 'anyAtomicType'],
  gYearMonth: [XSD + 'gYearMonth', 'anyAtomicType'],
  hexBinary: [XSD + 'hexBinary', 'anyAtomicType'],
  QName: [XSD + 'QName', 'anyAtomicType'],
  string: [XSD + 'string', 'anyAtomicType'],
  normalizedString: [XSD + 'normalizedString', 'string'],
  token: [XSD + 'token', 'normalizedString'],
  language: [XSD + 'language', 'token'],
  Name: [XSD + 'Name', 'token'],
  NMTOKEN: [XSD + 'NMTOKEN', 'token'],
  time: [XSD + 'time', 'anyAtomicType'],
  xml: [RDF_NS + 'XMLLiteral', 'string'],
  html: [RDF_NS + 'HTML', 'string'],
  json: [CSVW + 'JSON', 'string'],
};

// Names CSVW accepts for the same types.
const ALIASES: Record<string, string> = {
  number: 'double',
  binary: 'base64Binary',
  datetime: 'dateTime',
  any: 'anyAtomicType',
};

/** The canonical built-in name for a datatype name or IRI, if it is built in. */
export function builtinName(name: string): string | undefined {
  if (Object.hasOwn(TREE, name)) return name;
  if (Object.hasOwn(ALIASES, name)) return ALIASES[name];
  for (const [key, [iri]] of Object.entries(TREE)) if (iri === name) return key;
  return undefined;
}

export function datatypeIri(name: string): string {
  return TREE[name]?.[0] ?? XSD + 'string';
}

/** Whether built-in `name` is `ancestor` or derives from it. */
export function derivesFrom(name: string, ancestor: string): boolean {
  for (let current: string | undefined = name; current; current = TREE[current]?.[1]) {
    if (current === ancestor) return true;
  }
  return false;
}

/** Whether any built-in datatype has this IRI (a derived datatype must not reuse one). */
export function isBuiltinIri(iri: string): boolean {
  return Object.values(TREE).some(([known]) => known === iri);
}

export type Family =
  | 'string'
  | 'anyURI'
  | 'boolean'
  | 'decimal'
  | 'double'
  | 'date'
  | 'time'
  | 'dateTime'
  | 'duration'
  | 'gregorian'
  | 'binary'
  | 'other';

/** The family of a built-in datatype: which parsing rules and formats apply. */
export function familyOf(name: string): Family {
  if (derivesFrom(name, 'string')) return 'string';
  if (derivesFrom(name, 'decimal')) return 'decimal';
  if (name === 'double' || name === 'float') return 'double';
  if (derivesFrom(name, 'dateTime')) return 'dateTime';
  if (name === 'date') return 'date';
  if (name === 'time') return 'time';
  if (derivesFrom(name, 'duration')) return 'duration';
  if (name.startsWith('g')) return 'gregorian';
  if (name === 'base64Binary' || name === 'hexBinary') return 'binary';
  if (name === 'boolean') return 'boolean';
  if (name === 'anyURI') return 'anyURI';
  return 'other';
}
