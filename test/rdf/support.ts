// Helpers of the RDF module tests (the shared ones live in test/support/).
import type * as RDF from '@rdfjs/types';

export { assertIsomorphic } from '../support/rdf.ts';
export { seedFixture } from '../support/shared.ts';

/** Drops graph names, as the triple-only formats do. */
export function triplesOf(quads: readonly RDF.Quad[], factory: RDF.DataFactory): RDF.Quad[] {
  return quads.map((q) => factory.quad(q.subject, q.predicate, q.object));
}
