// The W3C CSVW test suite (fixtures/peer-suites/csvw): its manifest, and a loader that serves
// the suite's home URL from the fixture folder, as the suite README asks (Link headers of
// the manifest, ?query stripped for the file, /.well-known/csvm as w3.org serves it).
import { existsSync, readFileSync } from 'node:fs';
import { DomainError } from '../../lib/process/errors.ts';
import type { LoadedResource, ResourceLoader } from '../../lib/csvw/index.ts';
import { peerSuite } from '../support/shared.ts';

export const SUITE_BASE = 'http://www.w3.org/2013/csvw/tests/';
export const suiteDir = peerSuite('csvw/tests/');

export interface ManifestEntry {
  id: string;
  type: 'csvt:ToRdfTest' | 'csvt:ToRdfTestWithWarnings' | 'csvt:NegativeRdfTest';
  name: string;
  action: string;
  result?: string;
  option?: { noProv?: boolean; minimal?: boolean; metadata?: string };
  httpLink?: string;
}

export function rdfManifest(): ManifestEntry[] {
  const manifest = JSON.parse(readFileSync(`${suiteDir}manifest-rdf.jsonld`, 'utf8')) as {
    entries: ManifestEntry[];
  };
  return manifest.entries;
}

// What https://www.w3.org/.well-known/csvm held for the suite (tests 259 and 260 need it).
const WELL_KNOWN = '{+url}-metadata.json\ncsv-metadata.json\n{+url}.json\ncsvm.json\n';

/** A loader for one test: suite files by URL, the test's Link header on its action. */
export function suiteLoader(entry?: ManifestEntry): ResourceLoader {
  const actionUrl = entry ? SUITE_BASE + entry.action : undefined;
  return async (url: string): Promise<LoadedResource> => {
    if (url === 'http://www.w3.org/.well-known/csvm') return { text: WELL_KNOWN, contentType: 'text/plain' };
    if (!url.startsWith(SUITE_BASE)) throw new DomainError('not-found', `not found: ${url}`, 'csv_url');
    const path = url.slice(SUITE_BASE.length).replace(/[?#].*$/, '');
    const file = suiteDir + decodeURIComponent(path);
    if (!path || !existsSync(file) || path.endsWith('/'))
      throw new DomainError('not-found', `not found: ${url}`, 'csv_url');
    const contentType = path.endsWith('.csv') ? 'text/csv' : 'application/json';
    const linkHeader = url === actionUrl ? entry?.httpLink : undefined;
    return { text: readFileSync(file, 'utf8'), contentType, linkHeader };
  };
}
