// The RDF, XSD and BCP 47 basics every RDF-producing part of labld shares (lib/rml, lib/csvw,
// the converter, the annotator), written once: namespaces and the terms used everywhere, the
// IRI-scheme test, the XSD integer types' value ranges and the language-tag checks.

export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';

export const RDF_TYPE = `${RDF_NS}type`;
export const RDF_FIRST = `${RDF_NS}first`;
export const RDF_REST = `${RDF_NS}rest`;
export const RDF_NIL = `${RDF_NS}nil`;
export const RDF_LANG_STRING = `${RDF_NS}langString`;
export const XSD_STRING = `${XSD}string`;
export const XSD_INTEGER = `${XSD}integer`;
export const XSD_DOUBLE = `${XSD}double`;
export const XSD_BOOLEAN = `${XSD}boolean`;

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Whether a string starts with an IRI scheme (`http:`, `urn:`, `file:`): an absolute IRI. */
export function hasScheme(value: string): boolean {
  return SCHEME.test(value);
}

/** Value range of each bounded XSD integer type (null: unbounded on that side). */
export const XSD_INTEGER_RANGES: Readonly<Record<string, readonly [bigint | null, bigint | null]>> = {
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  short: [-32768n, 32767n],
  byte: [-128n, 127n],
  nonNegativeInteger: [0n, null],
  positiveInteger: [1n, null],
  nonPositiveInteger: [null, 0n],
  negativeInteger: [null, -1n],
  unsignedLong: [0n, 2n ** 64n - 1n],
  unsignedInt: [0n, 2n ** 32n - 1n],
  unsignedShort: [0n, 65535n],
  unsignedByte: [0n, 255n],
};

/** RFC 5646 `langtag` or private use (grandfathered tags are not accepted), any case. */
const LANGUAGE_TAG =
  /^(?:(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?(?:-(?:[a-z\d]{5,8}|\d[a-z\d]{3}))*(?:-[\da-wy-z](?:-[a-z\d]{2,8})+)*(?:-x(?:-[a-z\d]{1,8})+)?|x(?:-[a-z\d]{1,8})+)$/i;

/** A well-formed BCP 47 language tag (CSVW's check). */
export function isWellFormedLanguageTag(tag: string): boolean {
  return LANGUAGE_TAG.test(tag);
}

/**
 * Well-formed and with a primary language subtag that can exist: 2–3 letters (or private
 * use). Four letters are reserved and five to eight are for registrations, of which the IANA
 * registry has none, so `english` is refused (RMLTC0015b), as RMLMapper refuses it.
 */
export function isLanguageTag(tag: string): boolean {
  return LANGUAGE_TAG.test(tag) && !/^[a-z]{4,8}(?:-|$)/i.test(tag);
}
