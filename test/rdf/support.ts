// Shared helpers for the RDF module tests: where the seed fixtures are, and an isomorphism
// assertion that shows the differing canonical lines when it fails.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type * as RDF from '@rdfjs/types';
import { canonicalNQuads } from '../../lib/rdf/index.ts';

// shared/ sits beside the repository checkout (also in CI); LABLD_SHARED_DIR overrides.
const sharedDir = process.env['LABLD_SHARED_DIR'] ?? new URL('../../../shared/', import.meta.url).pathname;

export function seedFixture(path: string): string {
  const file = `${sharedDir.replace(/\/?$/, '/')}fixtures/seed-examples/${path}`;
  assert.ok(existsSync(file), `seed fixture missing: ${file} (set LABLD_SHARED_DIR to the shared/ folder)`);
  return file;
}

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

/** Drops graph names, as the triple-only formats do. */
export function triplesOf(quads: readonly RDF.Quad[], factory: RDF.DataFactory): RDF.Quad[] {
  return quads.map((q) => factory.quad(q.subject, q.predicate, q.object));
}
