// RDF dataset isomorphism via RDFC-1.0 canonicalisation (rdf-canonize, the library jsonld
// itself uses): two datasets are isomorphic iff their canonical N-Quads are equal.
import type * as RDF from '@rdfjs/types';
import { termToId, type Term } from 'n3';
import rdfCanonize from 'rdf-canonize';

// A dataset is a set, but rdf-canonize hashes duplicate quads again, changing the labels.
function distinct(quads: Iterable<RDF.Quad>): RDF.Quad[] {
  const seen = new Set<string>();
  const result: RDF.Quad[] = [];
  for (const quad of quads) {
    const key = [quad.subject, quad.predicate, quad.object, quad.graph]
      .map((t) => termToId(t as Term))
      .join(' ');
    if (!seen.has(key)) {
      seen.add(key);
      result.push(quad);
    }
  }
  return result;
}

export interface CanonicalForm {
  /** Sorted canonical N-Quads of the distinct quads. */
  nquads: string;
  /** Input blank node label → canonical label (`c14nN`). */
  labels: Map<string, string>;
}

/**
 * Canonicalises `quads`. `maxWorkFactor` bounds the work on graphs with many
 * indistinguishable blank nodes, `maxDeepIterations` (when given) caps it outright
 * (rdf-canonize throws when either is exceeded).
 */
export async function canonicalize(
  quads: Iterable<RDF.Quad>,
  maxWorkFactor = 1,
  maxDeepIterations?: number,
): Promise<CanonicalForm> {
  const labels = new Map<string, string>();
  const nquads = await rdfCanonize.canonize(distinct(quads), {
    algorithm: 'RDFC-1.0',
    canonicalIdMap: labels,
    maxWorkFactor,
    ...(maxDeepIterations === undefined ? {} : { maxDeepIterations }),
  });
  return { nquads, labels };
}

export async function canonicalNQuads(quads: Iterable<RDF.Quad>): Promise<string> {
  return (await canonicalize(quads, 2)).nquads;
}

/** Whether two datasets are the same up to blank node renaming. */
export async function isomorphic(a: Iterable<RDF.Quad>, b: Iterable<RDF.Quad>): Promise<boolean> {
  const [x, y] = await Promise.all([canonicalNQuads(a), canonicalNQuads(b)]);
  return x === y;
}
