// The part of shacl-engine (untyped) the converter uses.
declare module 'shacl-engine' {
  import type * as RDF from '@rdfjs/types';
  export class Validator {
    constructor(shapes: RDF.DatasetCore, options: { factory: unknown });
    validate(data: { dataset: RDF.DatasetCore }): Promise<{ conforms: boolean; dataset: Iterable<RDF.Quad> }>;
  }
}
