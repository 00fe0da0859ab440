// The vocabularies of extractor records: the spec's contract (schema.org for identity, names
// and files, DCAT for distributions, PROV-O for generation) beside the original's obis terms
// (http://w3id.org/matolab/openbis/) with DC, FOAF, QUDT and Web Annotation, so that queries
// written against the original (the explorer's tree: `?iri a obis:Space; obis:code ?code`,
// `<parent> obis:relates_to ?iri`) keep working.
export const NS = {
  obis: 'http://w3id.org/matolab/openbis/',
  schema: 'http://schema.org/',
  dcat: 'http://www.w3.org/ns/dcat#',
  dcterms: 'http://purl.org/dc/terms/',
  dc: 'http://purl.org/dc/elements/1.1/',
  prov: 'http://www.w3.org/ns/prov#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  qudt: 'http://qudt.org/schema/qudt/',
  oa: 'http://www.w3.org/ns/oa#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
} as const;

export type Prefix = keyof typeof NS;

/** `term('schema', 'name')` → http://schema.org/name */
export const term = (prefix: Prefix, local: string): string => NS[prefix] + local;

/** The JSON-LD context records are compacted with: the prefixes, and nothing fetched. */
export function recordContext(base?: string): Record<string, string> {
  return { ...(base === undefined ? {} : { '@base': base }), ...NS };
}
