// /api/test: the per-rule statistics say, for each rule, the condition, the values compared
// and whether it matched — the tool for diagnosing a skipped rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testMapping } from '../../lib/converter/index.ts';
import { statusLine } from '../../lib/process/http-status.ts';
import { CSVW_MAPPING_URL, readSeed, seedLoader } from './support.ts';

const ACTIVITY = 'http://localhost:8000/converter/api/createrdf';

test('a skipped rule shows the value it was compared with and why it did not match', async () => {
  const url = 'https://example.org/typo-map.yaml';
  const mapping = readSeed('rdfconverter/csvw-template-map.yaml').replace(
    '[str2, Standardkraft]',
    '[str2, StandardKraft]',
  );
  const report = await testMapping(
    { mappingUrl: url, activity: ACTIVITY },
    seedLoader({ [url]: mapping }),
    statusLine,
  );
  assert.equal(report.success, true);
  assert.deepEqual([report.num_rules_total, report.num_rules_applied, report.num_rules_skipped], [7, 6, 1]);
  const force = report.per_rule_statistics.find((r) => r.rule_name === 'ForceMeasurement')!;
  assert.equal(force.applied, false);
  assert.equal(force.triples_generated, 0);
  assert.equal(force.subjects_affected, 0);
  assert.ok(force.records >= 6, 'every column was looked at');
  assert.ok(
    force.compared.some((c) => c.left === 'Standardkraft' && c.right === 'StandardKraft' && !c.result),
  );
  assert.deepEqual(force.check?.applicable, false);
  const width = report.per_rule_statistics.find((r) => r.rule_name === 'WidthMeasurement')!;
  assert.ok(width.compared.some((c) => c.left === 'Probenbreite b0' && c.result));
  assert.deepEqual(width.predicate, ['http://purl.obolibrary.org/obo/RO_0010002']);
  assert.equal(report.rule_statistics, report.per_rule_statistics);
  assert.equal(report.triple_count, report.num_triples_generated);
  assert.ok(report.output_preview.length > 0 && report.output_preview.length <= 1000);
  assert.ok(report.logs.some((l) => /WARNING - converter - rule ForceMeasurement: skipped/.test(l)));
});

test('a failing run answers success false with the error (as the original) and its logs', async () => {
  const report = await testMapping(
    { mappingUrl: 'https://example.org/nowhere.yaml', activity: ACTIVITY },
    seedLoader(),
    statusLine,
  );
  assert.equal(report.success, false);
  assert.match(report.error ?? '', /^422: mapping_url/);
  assert.deepEqual(report.per_rule_statistics, []);
  assert.ok(report.logs.some((l) => l.startsWith('ERROR')));
});

test('the seed mapping: every rule applied with one triple', async () => {
  const report = await testMapping(
    { mappingUrl: CSVW_MAPPING_URL, activity: ACTIVITY },
    seedLoader(),
    statusLine,
  );
  assert.deepEqual(
    report.per_rule_statistics.map((r) => [r.rule_name, r.applied, r.triples_generated]),
    [
      ['SpecimenID', true, 1],
      ['WidthMeasurement', true, 1],
      ['ThicknessMeasurement', true, 1],
      ['ForceMeasurement', true, 1],
      ['LengthMeasurement', true, 1],
      ['CrossheadSpeedSetPointValue', true, 1],
      ['PreLoadSetPointValue', true, 1],
    ],
  );
});
