// RDF assertions for every suite: isomorphism by canonical N-Quads, showing the differing lines.
import assert from 'node:assert/strict';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { canonicalNQuads } from '../../lib/rdf/index.ts';

const XSD_DOUBLE = 'http://www.w3.org/2001/XMLSchema#double';

export async function assertIsomorphic(
  actual: Iterable<RDF.Quad>,
  expected: Iterable<RDF.Quad>,
  message: string,
): Promise<void> {
  const [a, e] = await Promise.all([canonicalNQuads(actual), canonicalNQuads(expected)]);
  if (a === e) return;
  const aLines = new Set(a.split('\n'));
  const eLines = new Set(e.split('\n'));
  const missing = [...eLines].filter((l) => !aLines.has(l)).slice(0, 5);
  const extra = [...aLines].filter((l) => !eLines.has(l)).slice(0, 5);
  assert.fail(
    `${message}: not isomorphic\n  missing: ${missing.join('\n    ')}\n  extra: ${extra.join('\n    ')}`,
  );
}

/**
 * xsd:double literals by value: rdflib's Turtle writer prints 190.0 as `1.9e+02`, labld writes
 * the canonical `1.9E2`; golden comparisons compare doubles by value.
 */
export function doublesByValue(quads: RDF.Quad[]): RDF.Quad[] {
  return quads.map((q) =>
    q.object.termType === 'Literal' && q.object.datatype.value === XSD_DOUBLE
      ? DataFactory.quad(
          q.subject,
          q.predicate,
          DataFactory.literal(String(Number(q.object.value)), q.object.datatype),
        )
      : q,
  );
}
