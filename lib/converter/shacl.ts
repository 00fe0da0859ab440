// SHACL validation for /api/rdfvalidator with shacl-engine, the engine `bench/shacl.ts` chose
// on the W3C core suite (README, dependency table). rdf-validate-shacl, the other maintained
// engine, is a devDependency: the cross-check in the tests and the bench's second engine
// (test/converter/shacl-suite.ts).
import type * as RDF from '@rdfjs/types';
import rdf from '@zazuko/env';
import { Validator } from 'shacl-engine';

export interface ShaclReport {
  conforms: boolean;
  /** The validation report as quads (sh:ValidationReport with its sh:results). */
  report: RDF.Quad[];
}

/** The RDF/JS dataset (of `@zazuko/env`, the factory both engines take) holding `quads`. */
export function shaclDataset(quads: Iterable<RDF.Quad>) {
  const out = rdf.dataset();
  for (const q of quads) out.add(q);
  return out;
}

/** Validates `data` against `shapes`; an unusable shapes graph throws (a client error upstream). */
export async function validateShacl(
  shapes: Iterable<RDF.Quad>,
  data: Iterable<RDF.Quad>,
): Promise<ShaclReport> {
  const validator = new Validator(shaclDataset(shapes), { factory: rdf });
  const report = await validator.validate({ dataset: shaclDataset(data) });
  return { conforms: report.conforms, report: [...report.dataset] };
}
