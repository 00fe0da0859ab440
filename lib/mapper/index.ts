// The mapper (MapToMethod 1.1.5): what a descriptor or template offers, and YARRRML mapping
// generation. Plain functions; consumers/mapper.ts puts them on the bus.
export { loadDocument, readDocument, type RdfDocument } from './document.ts';
export {
  baseNamespace,
  checkTypesNotCut,
  listEntities,
  listTypes,
  readTypes,
  type Entity,
  type EntityList,
} from './entities.ts';
export { expandIri, localName } from './iri.ts';
export { findJsonSource, jsonSources, type JsonSource } from './iterator.ts';
export {
  generateMapping,
  mappingFileName,
  readMappingOptions,
  renderMapping,
  type GeneratedMapping,
  type MappingOptions,
  type MappingRequest,
} from './mapping.ts';
export { readMap, resolveEntries, type Orientation, type ResolvedEntry } from './resolve.ts';
export { closestNames, editDistance, holdsText, suggestIndividuals } from './suggest.ts';
export * from './vocab.ts';
export { mappingChoices, type Choice } from './choices.ts';
