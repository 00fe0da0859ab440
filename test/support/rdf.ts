// RDF assertions for every suite: isomorphism by canonical N-Quads, showing the differing lines.
import assert from 'node:assert/strict';
import type * as RDF from '@rdfjs/types';
import { canonicalNQuads } from '../../lib/rdf/index.ts';

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
