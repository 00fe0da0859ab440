// RMLMapper's own old-FnML function tests and CSVW-source tests (legacy vocabulary), from
// the transcribed manifest. Cases that need a Java test setup (no mapping file) are not run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { checkSuite, PEER_SUITES, type PeerCase } from './peer.ts';

const root = `${PEER_SUITES}rmlmapper-java-resources/`;
const resources = `${root}src/test/resources/`;

interface ManifestEntry {
  method: string;
  mapping: string | null;
  expected: string;
  expectError: boolean;
}

const manifest = JSON.parse(readFileSync(`${root}manifest.json`, 'utf8')) as { tests: ManifestEntry[] };

// RMLMapper's tests of idlab-fn:random replace the generated UUID by the placeholder their
// expected files hold; so do we, after checking that a UUID was generated there.
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
const RANDOM_TESTS = new Set(['evaluate_0000_CSV', 'evaluate_0023_CSV']);
function placeholderForUuids(nquads: string): string {
  assert.match(nquads, UUID, 'idlab-fn:random yields a UUID');
  return nquads.replace(UUID, 'random_string_here');
}

const cases: PeerCase[] = manifest.tests
  .filter((t) => t.mapping !== null)
  .map((t) => ({
    id: t.method,
    dir: dirname(`${resources}${t.mapping}`),
    mapping: readFileSync(`${resources}${t.mapping}`, 'utf8'),
    expected: t.expectError ? undefined : `${resources}${t.expected}`,
    ...(RANDOM_TESTS.has(t.method) ? { rewrite: placeholderForUuids } : {}),
  }));

test('peer suite rmlmapper-java-resources (functions and CSVW sources)', async (t) => {
  await checkSuite(t, 'rmlmapper-java-resources', cases, 'http://example.com/base/');
});
