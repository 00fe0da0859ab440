// The annotator domain: CSV → CSVW descriptor, descriptor → any return_type. Plain functions;
// the gateway and the annotate consumer wrap them. See README.md.
export { annotate } from './annotate.ts';
export type { AnnotateOptions, AnnotateResult, CsvSource } from './annotate.ts';
export { renderDescriptor } from './render.ts';
export type { Rendered, RenderOptions } from './render.ts';
export { ENCODINGS, charsetName, checkEncoding } from './encoding.ts';
export type { EncodingName } from './encoding.ts';
export type { Descriptor, Provenance } from './descriptor.ts';
export { csvNames, makeId, rdfDownloadName } from './names.ts';
export { unitOf, suffixUnitOf, unitIndex } from './units.ts';
export type { UnitRef } from './units.ts';
