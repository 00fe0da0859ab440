// Every CSV of seed-examples/csvtocsvw/ and probes/ against the original's descriptor, provenance
// excluded (the cases and the patches for fixed bugs are in goldens.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { caseUrl, expectedDescriptor, GOLDEN_CASES, type Json } from './goldens.ts';
import { annotateFile, asJson, csvtocsvw, EXAMPLES, withoutProvenance } from './support.ts';

describe('annotate: the original descriptors of seed-examples/csvtocsvw and its probes', () => {
  for (const c of GOLDEN_CASES) {
    it(c.title, async () => {
      const { descriptor } = await annotateFile(csvtocsvw(c.csv), caseUrl(c));
      assert.deepEqual(asJson(withoutProvenance(descriptor)), expectedDescriptor(c));
    });
  }
});

describe('annotate: provenance', () => {
  it('has the original shape: activity (the request URL), agent, time with its zone', async () => {
    const original = JSON.parse(
      readFileSync(csvtocsvw('regenerated-v1.3.5/example6-metadata.json'), 'utf8'),
    ) as Json;
    const time = new Date('2026-01-01T00:00:00Z');
    const { descriptor } = await annotateFile(csvtocsvw('example6.csv'), `${EXAMPLES}example6.csv`, {
      provenance: { activity: 'http://localhost:5001/api/annotate', time },
    });
    assert.deepEqual(descriptor['prov:wasGeneratedBy'], original['prov:wasGeneratedBy']);
    assert.deepEqual(descriptor['prov:generatedAtTime'], {
      '@value': '2026-01-01T00:00:00.000Z',
      '@type': 'xsd:dateTime',
    });
    assert.deepEqual(Object.keys(descriptor), Object.keys(original));
  });
});
