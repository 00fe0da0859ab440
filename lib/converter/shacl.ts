// SHACL validation for /api/rdfvalidator. Two maintained engines are wired here behind one
// signature; `bench/shacl.ts` measures both on the W3C core suite and the converter uses the
// one chosen there (README, dependency table). The other stays as a cross-check in tests.
import type * as RDF from '@rdfjs/types';
import rdf from '@zazuko/env';
import SHACLValidator from 'rdf-validate-shacl';
import { Validator } from 'shacl-engine';

export type ShaclEngine = 'shacl-engine' | 'rdf-validate-shacl';

export interface ShaclReport {
  conforms: boolean;
  /** The validation report as quads (sh:ValidationReport with its sh:results). */
  report: RDF.Quad[];
}

function dataset(quads: Iterable<RDF.Quad>) {
  const out = rdf.dataset();
  for (const q of quads) out.add(q);
  return out;
}

/** Validates `data` against `shapes`; an unusable shapes graph throws (a client error upstream). */
export async function validateShacl(
  shapes: Iterable<RDF.Quad>,
  data: Iterable<RDF.Quad>,
  engine: ShaclEngine = 'shacl-engine',
): Promise<ShaclReport> {
  if (engine === 'shacl-engine') {
    const validator = new Validator(dataset(shapes), { factory: rdf });
    const report = await validator.validate({ dataset: dataset(data) });
    return { conforms: report.conforms, report: [...report.dataset] };
  }
  const validator = new SHACLValidator(dataset(shapes), { factory: rdf });
  const report = await validator.validate(dataset(data));
  return { conforms: report.conforms, report: [...report.dataset] };
}
