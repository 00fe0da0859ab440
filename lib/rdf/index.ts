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
export { DEFAULT_PREFIXES, serialize } from './serialize.ts';
export type { SerializeOptions } from './serialize.ts';
export { contextPrefixes, parse } from './parse.ts';
export type { ParseOptions } from './parse.ts';
export type { JsonLdContext } from './jsonld-io.ts';
export { BUNDLED_CONTEXT_URLS, documentLoader } from './document-loader.ts';
export { canonicalNQuads, canonicalize, isomorphic } from './isomorphism.ts';
export type { CanonicalForm } from './isomorphism.ts';
