// The legacy profile (RMLMapper 8.1.0, which ran every mapping of the original pipeline):
// RML test cases in the legacy vocabulary (rr:, semweb rml:, ql:), one per behaviour that
// differs from RML-Core — shaped after the public rml-test-cases (RMLTC0019a/b, 0002e, 0015b)
// and written here with RMLMapper's expected output. Run with no base IRI option, as
// RMLMapper runs them: the document's @base applies.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { RmlError, runRml, type RunResult } from '../../lib/rml/index.ts';
import { canonical, readNQuads } from './support.ts';

const dirOf = (name: string) => new URL(`./legacy/${name}/`, import.meta.url).pathname;

function run(name: string, options: { strict?: boolean } = {}): Promise<RunResult> {
  const dir = dirOf(name);
  return runRml(readFileSync(`${dir}mapping.ttl`, 'utf8'), {
    mappingDir: dir,
    mappingBaseIri: `file://${dir}`,
    ...options,
  });
}

async function assertOutput(name: string, result: RunResult): Promise<void> {
  const expected = readFileSync(`${dirOf(name)}output.nq`, 'utf8');
  assert.equal(await canonical(readNQuads(result.nquads)), await canonical(readNQuads(expected)));
}

const rejectsAs = (part: RmlError['part'], pattern: RegExp) => (error: unknown) =>
  error instanceof RmlError && error.part === part && pattern.test(error.message);

describe('legacy RML behaves as RMLMapper', () => {
  it('base IRI: a relative IRI from a reference resolves against the document @base (RMLTC0019a)', async () => {
    await assertOutput('base-reference', await run('base-reference'));
  });

  it('base IRI: a relative template resolves against the document @base', async () => {
    await assertOutput('base-template', await run('base-template'));
  });

  it('JSON numbers and booleans are plain literals in legacy mappings', async () => {
    await assertOutput('json-values', await run('json-values'));
  });

  it('…and typed in RML-Core mappings (chosen by the triples map vocabulary)', async () => {
    await assertOutput('json-values-rml-core', await run('json-values-rml-core'));
  });

  it('data error (an invalid IRI from a cell): the term is skipped, every other triple kept, counted and reported (RMLTC0019b)', async () => {
    const result = await run('data-error');
    await assertOutput('data-error', result);
    assert.equal(result.skipped, 1, 'the subject IRI of "Juan Daniel"');
    const [stats] = result.statistics;
    assert.equal(stats?.iterations, 3);
    assert.equal(stats?.passed, 2);
    assert.equal(stats?.skipped, 1);
    assert.deepEqual(stats?.errors, [
      '"http://example.com/base/Juan Daniel" (from reference "FirstName") is not a valid IRI',
    ]);
  });

  it('data error with strict: the run ends with the error', async () => {
    await assert.rejects(
      run('data-error', { strict: true }),
      rejectsAs('data', /Juan Daniel.*not a valid IRI/),
    );
  });

  it('mapping error: a reference to a column the CSV does not have (RMLTC0002e)', async () => {
    await assert.rejects(run('missing-column'), rejectsAs('mapping', /no column "IDs"/));
  });

  it('mapping error: an invalid rr:language (RMLTC0015b)', async () => {
    await assert.rejects(
      run('invalid-language'),
      rejectsAs('mapping', /"english" is not a valid language tag/),
    );
  });

  it('a literal-valued graph map writes nothing for its triples; the others are written', async () => {
    await assertOutput('literal-graph', await run('literal-graph'));
  });
});
