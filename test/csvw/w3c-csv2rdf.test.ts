// The W3C CSVW csv2rdf suite (manifest-rdf, 270 tests) against labld's converter. Positive
// tests compare graphs by isomorphism; "with warnings" tests also need a warning; negative
// tests need an error. Tests listed in known-failures.json must fail (so a fix is noticed).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { csvwToRdf, type CsvwInput } from '../../lib/csvw/index.ts';
import { canonicalNQuads, parse } from '../../lib/rdf/index.ts';
import { SUITE_BASE, rdfManifest, suiteDir, suiteLoader, type ManifestEntry } from './w3c-suite.ts';

const knownFailures = JSON.parse(
  readFileSync(new URL('./known-failures.json', import.meta.url), 'utf8'),
) as Record<string, string>;

function inputOf(entry: ManifestEntry): CsvwInput {
  if (/\.csv(\?|$)/.test(entry.action)) {
    const user = entry.option?.metadata;
    return { csvUrl: SUITE_BASE + entry.action, ...(user ? { metadataUrl: SUITE_BASE + user } : {}) };
  }
  return { metadataUrl: SUITE_BASE + entry.action };
}

/** Why the entry fails, or undefined when it passes. */
async function failure(entry: ManifestEntry): Promise<string | undefined> {
  let result;
  try {
    result = await csvwToRdf(inputOf(entry), {
      load: suiteLoader(entry),
      mode: entry.option?.minimal ? 'minimal' : 'standard',
    });
  } catch (error) {
    return entry.type === 'csvt:NegativeRdfTest' ? undefined : `error: ${(error as Error).message}`;
  }
  if (entry.type === 'csvt:NegativeRdfTest') return 'no error raised';
  const expected = await parse(readFileSync(suiteDir + entry.result, 'utf8'), 'turtle', {
    baseIRI: SUITE_BASE + entry.result,
  });
  if ((await canonicalNQuads(result.quads)) !== (await canonicalNQuads(expected))) return 'graph differs';
  if (entry.type === 'csvt:ToRdfTestWithWarnings' && result.warnings.length === 0) return 'no warning';
  return undefined;
}

describe('W3C CSVW csv2rdf suite', () => {
  const entries = rdfManifest();
  let passed = 0;

  it('has the 270 tests of the manifest', () => {
    assert.equal(entries.length, 270);
    for (const id of Object.keys(knownFailures)) {
      assert.ok(
        entries.some((entry) => entry.id.endsWith(`#${id}`)),
        `known failure ${id} is not in the manifest`,
      );
    }
  });

  for (const entry of entries) {
    const id = entry.id.split('#')[1] as string;
    it(`${id} ${entry.name}`, async () => {
      const reason = await failure(entry);
      if (reason === undefined) passed += 1;
      if (Object.hasOwn(knownFailures, id)) {
        assert.ok(reason !== undefined, `${id} passes now: remove it from known-failures.json`);
      } else {
        assert.equal(reason, undefined, `${id} (${entry.type}) fails: ${reason}`);
      }
    });
  }

  after(() => {
    console.log(`W3C CSVW csv2rdf: ${passed}/${entries.length} passed`);
  });
});
