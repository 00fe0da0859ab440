// The CSVW descriptor's outer shape (research §1.10): the original's @context members, the
// TableGroup, notes, tables and the provenance of the annotation.
import { randomUUID } from 'node:crypto';
import { ORIGINAL_AGENT } from '../csvw/descriptor-rdf.ts';
import type { Note } from './meta.ts';
import type { Table } from './table.ts';

export const CSVW_CONTEXT = 'http://www.w3.org/ns/csvw';

/** The producing agent as the interface (v1.3.5) names it; labld keeps the same identity. */
export const AGENT = {
  '@id': ORIGINAL_AGENT.iri,
  'rdfs:label': ORIGINAL_AGENT.label,
  'prov:hadPrimarySource': ORIGINAL_AGENT.source,
  '@type': 'prov:SoftwareAgent',
} as const;

export interface Descriptor {
  '@context': [string, Record<string, string>];
  '@id': string;
  '@type': string;
  notes: Note[];
  tables: Table[];
  'prov:wasGeneratedBy': Record<string, unknown>;
  'prov:generatedAtTime': { '@value': string; '@type': 'xsd:dateTime' };
}

export interface Provenance {
  /** The activity's IRI: the request URL (the original's choice); default a fresh urn:uuid. */
  activity?: string;
  /** When the descriptor was made; default now. Written with its time zone (UTC). */
  time?: Date;
}

function descriptorContext(namespace: string): [string, Record<string, string>] {
  return [
    CSVW_CONTEXT,
    {
      oa: 'http://www.w3.org/ns/oa#',
      label: 'http://www.w3.org/2000/01/rdf-schema#label',
      xsd: 'http://www.w3.org/2001/XMLSchema#',
      qudt: 'http://qudt.org/schema/qudt/',
      dc: 'http://purl.org/dc/elements/1.1/',
      prov: 'http://www.w3.org/ns/prov#',
      csv: namespace,
    },
  ];
}

export function buildDescriptor(parts: {
  csvUrl: string;
  namespace: string;
  notes: Note[];
  tables: Table[];
  provenance?: Provenance;
}): Descriptor {
  const time = parts.provenance?.time ?? new Date();
  return {
    '@context': descriptorContext(parts.namespace),
    '@id': parts.csvUrl,
    '@type': `${CSVW_CONTEXT}#TableGroup`,
    notes: parts.notes,
    tables: parts.tables,
    'prov:wasGeneratedBy': {
      '@id': parts.provenance?.activity ?? `urn:uuid:${randomUUID()}`,
      '@type': 'prov:Activity',
      'prov:wasAssociatedWith': { ...AGENT },
    },
    'prov:generatedAtTime': { '@value': time.toISOString(), '@type': 'xsd:dateTime' },
  };
}
