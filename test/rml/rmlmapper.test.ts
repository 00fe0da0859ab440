// RMLMapper's own old-FnML function tests and CSVW-source tests (legacy vocabulary), from
// the transcribed manifest. Cases that need a Java test setup (no mapping file) are not run.
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

const cases: PeerCase[] = manifest.tests
  .filter((t) => t.mapping !== null)
  .map((t) => ({
    id: t.method,
    dir: dirname(`${resources}${t.mapping}`),
    mapping: readFileSync(`${resources}${t.mapping}`, 'utf8'),
    expected: t.expectError ? undefined : `${resources}${t.expected}`,
  }));

test('peer suite rmlmapper-java-resources (functions and CSVW sources)', async (t) => {
  await checkSuite(t, 'rmlmapper-java-resources', cases, 'http://example.com/base/');
});
