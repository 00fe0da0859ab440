// The RDF formats module: every return_type in and out, bundled JSON-LD contexts,
// isomorphism. Services import from here.
export {
  FORMATS,
  RETURN_TYPES,
  formatFromContentType,
  formatFromFileName,
  formatInfo,
  guessFormat,
  isRdfFormat,
  isReturnType,
  returnTypeInfo,
} from './formats.ts';
export type { FormatInfo, RdfFormat, ReturnType } from './formats.ts';
export {
  DEFAULT_PREFIXES,
  STREAMED_FORMATS,
  declaredPrefixes,
  serialize,
  serializeStream,
} from './serialize.ts';
export type { QuadBatches, SerializeOptions, StreamOptions } from './serialize.ts';
export { contextPrefixes, parse, parseJsonLdDocument } from './parse.ts';
export type { ParseOptions } from './parse.ts';
export type { JsonLdContext } from './jsonld-io.ts';
export { BUNDLED_CONTEXT_URLS, documentLoader } from './document-loader.ts';
export { canonicalNQuads, canonicalize, isomorphic } from './isomorphism.ts';
export type { CanonicalForm } from './isomorphism.ts';
