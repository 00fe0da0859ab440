// Runs peer RML test cases and checks the failures against test/rml/known-failures.json: a
// suite passes when exactly the listed cases fail, so both a fix and a regression are noticed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { runRml, type ExecuteOptions } from '../../lib/rml/index.ts';
import { canonical, readExpected, readNQuads } from './support.ts';
import { sharedDir } from '../support/shared.ts';

export const PEER_SUITES = `${sharedDir}fixtures/peer-suites/`;

const KNOWN = JSON.parse(readFileSync(new URL('./known-failures.json', import.meta.url), 'utf8')) as Record<
  string,
  Record<string, string>
>;

export interface PeerCase {
  id: string;
  /** Mapping text and where it lives (sources are relative to it). */
  mapping: string;
  dir: string;
  /** Expected output file (N-Quads or Turtle), or undefined when an error is expected. */
  expected?: string;
  options?: ExecuteOptions;
  /** Rewrites the output before comparison (what the peer's own test does, e.g. for random values). */
  rewrite?: (nquads: string) => string;
}

/** Runs one case; returns why it failed, or undefined when it passed. */
export async function runCase(c: PeerCase, baseIri: string): Promise<string | undefined> {
  let output: string | undefined;
  let error: Error | undefined;
  try {
    const options = {
      mappingDir: c.dir,
      cwd: c.dir,
      baseIri,
      mappingBaseIri: `file://${c.dir}/`,
      ...c.options,
    };
    output = (await runRml(c.mapping, options)).nquads;
    if (c.rewrite) output = c.rewrite(output);
  } catch (e) {
    error = e as Error;
  }
  if (!c.expected) return error ? undefined : 'an error was expected, but the mapping ran';
  if (error) return `unexpected error: ${error.message}`;
  const expectedText = readFileSync(c.expected, 'utf8');
  const dir = c.expected.replace(/[^/]*$/, '');
  const [actual, expected] = await Promise.all([
    canonical(readNQuads(output!)),
    canonical(readExpected(expectedText, c.expected, `file://${dir}`)),
  ]);
  return actual === expected ? undefined : `different output:\n${actual}---- expected:\n${expected}`;
}

/** Runs all cases of a suite and asserts that exactly the known failures fail. */
export async function checkSuite(
  t: TestContext,
  suite: string,
  cases: PeerCase[],
  baseIri: string,
): Promise<void> {
  const known = KNOWN[suite] ?? {};
  const failures = new Map<string, string>();
  for (const c of cases) {
    const why = await runCase(c, baseIri);
    if (why !== undefined) failures.set(c.id, why);
  }
  t.diagnostic(
    `${suite}: ${cases.length - failures.size}/${cases.length} pass, ${failures.size} known failures`,
  );
  const unexpected = [...failures].filter(([id]) => !(id in known));
  const fixed = Object.keys(known).filter((id) => !failures.has(id));
  assert.deepEqual(
    { unexpected: unexpected.map(([id, why]) => `${id}: ${why.slice(0, 2000)}`), fixed },
    { unexpected: [], fixed: [] },
    'the failing cases differ from known-failures.json',
  );
}

interface IndexedTest {
  id: string;
  mapping: string;
  expected: string[];
  errorExpected: boolean;
}

/** The cases of a kg-construct suite (its index.json, added to the fixtures by us). */
export function kgcCases(suite: string): PeerCase[] {
  const root = `${PEER_SUITES}${suite}/`;
  const index = JSON.parse(readFileSync(`${root}index.json`, 'utf8')) as { tests: IndexedTest[] };
  return index.tests.map((test) => {
    const dir = `${root}test-cases/${test.id}`;
    const expected = test.expected.find((e) => e === 'output.nq' || e === 'default.nq');
    return {
      id: test.id,
      dir,
      mapping: readFileSync(`${dir}/${test.mapping}`, 'utf8'),
      expected: test.errorExpected || !expected ? undefined : `${dir}/${expected}`,
    };
  });
}
