// The IRIs the mapper reads and writes, and the prefixes it knows without being told.
import { DEFAULT_PREFIXES } from '../rdf/index.ts';

export { RDF_TYPE } from '../rdf/vocab.ts';
export const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
export const CSVW_NAME = 'http://www.w3.org/ns/csvw#name';
export const OWL_NAMED_INDIVIDUAL = 'http://www.w3.org/2002/07/owl#NamedIndividual';

/** The predicate of a generated rule unless the request names one (MapToMethod's default). */
export const DEFAULT_PREDICATE = 'http://purl.obolibrary.org/obo/RO_0010002';

/** `/api/entities` `types` and `/api/mapping` `data_types` default (spec, "Mapping generation service"). */
export const DEFAULT_DATA_TYPES = ['http://www.w3.org/ns/oa#Annotation', 'http://www.w3.org/ns/csvw#Column'];

/** MapToMethod's `template_types` default; the mappable slots are owl:NamedIndividuals besides these. */
export const DEFAULT_TEMPLATE_TYPES = [
  'https://spec.industrialontologies.org/ontology/core/Core/InformationContentEntity',
  'http://purl.obolibrary.org/obo/BFO_0000008',
];

/** Base IRI of every generated mapping, as MapToMethod writes it. */
export const MAPPING_BASE = 'http://purl.matolab.org/mseo/mappings/';

/** Prefixes every generated mapping declares besides `data` and `template` (rdflib's core set plus bfo, csvw). */
export const MAPPING_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  bfo: 'http://purl.obolibrary.org/obo/',
  csvw: 'http://www.w3.org/ns/csvw#',
  ...DEFAULT_PREFIXES,
  xml: 'http://www.w3.org/XML/1998/namespace',
});

/** Prefixes a client may use for type and predicate IRIs (`csvw:Column`, `bfo:RO_0010002`). */
export const KNOWN_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  ...MAPPING_PREFIXES,
  obo: 'http://purl.obolibrary.org/obo/',
  oa: 'http://www.w3.org/ns/oa#',
  qudt: 'http://qudt.org/schema/qudt/',
  prov: 'http://www.w3.org/ns/prov#',
  iof: 'https://spec.industrialontologies.org/ontology/core/Core/',
});
