// The W3C SHACL core suite (98 tests) against the converter's SHACL engine, one test each;
// rdf-validate-shacl, the other maintained engine, is run over the same suite as a cross-check.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSuite, passes, SHACL_ENGINES, type ShaclEngine, type SuiteTest } from './shacl-suite.ts';

const suite = loadSuite('core');

async function outcome(t: SuiteTest, engine: ShaclEngine = 'shacl-engine') {
  try {
    return await SHACL_ENGINES[engine](t.shapes, t.data);
  } catch (error) {
    return error as Error;
  }
}

test('the suite has the 98 core tests', () => assert.equal(suite.length, 98));

for (const t of suite) {
  test(`W3C SHACL core: ${t.name}`, async () => {
    assert.ok(passes(t, await outcome(t)), `${t.name}: report differs from the expected one`);
  });
}

test('cross-check: rdf-validate-shacl passes the same core tests', async () => {
  const failed: string[] = [];
  for (const t of suite) if (!passes(t, await outcome(t, 'rdf-validate-shacl'))) failed.push(t.name);
  assert.deepEqual(failed, []);
});
