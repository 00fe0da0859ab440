// Types for the parts of rdf-canonize (ships none) that lib/rdf uses.
declare module 'rdf-canonize' {
  import type * as RDF from '@rdfjs/types';

  export interface CanonizeOptions {
    algorithm: 'RDFC-1.0';
    /** Filled with input blank node label → canonical label (`c14nN`). */
    canonicalIdMap?: Map<string, string>;
    /** Bound on deep iterations, relative to the number of non-unique blank nodes. */
    maxWorkFactor?: number;
    signal?: AbortSignal;
  }

  /** Canonical N-Quads (RDFC-1.0), one sorted line per quad. */
  export function canonize(dataset: readonly RDF.Quad[], options: CanonizeOptions): Promise<string>;

  const rdfCanonize: { canonize: typeof canonize };
  export default rdfCanonize;
}
