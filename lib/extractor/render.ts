// A record in the representation the client negotiated: JSON-LD compacted with the records'
// context (default) or expanded, Turtle, N-Triples, RDF/XML (the formats module's writers), or
// openBIS's own JSON. No context is ever fetched: compaction uses the local one (vocab.ts).
import jsonld from 'jsonld';
import { serialize } from '../rdf/index.ts';
import { recordContext, NS } from './records/vocab.ts';
import type { Extracted } from './extract.ts';
import type { Representation } from './representations.ts';

export type { Representation } from './representations.ts';

export interface Rendered {
  body: string;
  contentType: string;
  extension: string;
}

const prefixes = { ...NS };

export async function render(record: Extracted, representation: Representation): Promise<Rendered> {
  // Grouped by subject, so that Turtle and RDF/XML read one description per node.
  const quads = [...record.graph.quads].sort((a, b) =>
    a.subject.value < b.subject.value ? -1 : a.subject.value > b.subject.value ? 1 : 0,
  );
  switch (representation) {
    case 'json':
      return { body: JSON.stringify(record.raw), contentType: 'application/json', extension: 'json' };
    case 'turtle':
      return {
        body: await serialize(quads, 'turtle', { prefixes }),
        contentType: 'text/turtle',
        extension: 'ttl',
      };
    case 'ntriples':
      return { body: await serialize(quads, 'nt'), contentType: 'application/n-triples', extension: 'nt' };
    case 'rdfxml':
      return {
        body: await serialize(quads, 'xml', { prefixes }),
        contentType: 'application/rdf+xml',
        extension: 'rdf',
      };
    case 'jsonld-expanded': {
      const expanded = await jsonld.fromRDF(quads as never, { useNativeTypes: false, useRdfType: false });
      return { body: JSON.stringify(expanded), contentType: 'application/ld+json', extension: 'jsonld' };
    }
    case 'jsonld': {
      const body = await serialize(quads, 'json-ld', { context: recordContext() });
      return { body, contentType: 'application/ld+json', extension: 'jsonld' };
    }
  }
}
