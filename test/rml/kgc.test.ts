// The kg-construct RML suites (new RML vocabulary), compared by dataset isomorphism.
import { test } from 'node:test';
import { checkSuite, kgcCases } from './peer.ts';

// The manifests give http://example.com/ as the default base IRI; the historic CSV variants
// predate that and expect the R2RML suites' http://example.com/base/, and so do the RML-CC
// expectations (whose manifest names no base).
const SUITES: [string, string][] = [
  ['kgc-rml-core', 'http://example.com/'],
  ['kgc-rml-core-csv-2025-02', 'http://example.com/base/'],
  ['kgc-rml-fnml', 'http://example.com/'],
  ['kgc-rml-io', 'http://example.com/'],
  ['kgc-rml-cc', 'http://example.com/base/'],
  ['kgc-rml-lv', 'http://example.com/'],
];

for (const [suite, baseIri] of SUITES) {
  test(`peer suite ${suite}`, async (t) => {
    await checkSuite(t, suite, kgcCases(suite), baseIri);
  });
}
