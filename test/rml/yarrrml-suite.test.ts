// The YARRRML parser's own test cases (YARRRML → RML). Our translation is the parser's, fed
// through our YAML reading, so its RML must be isomorphic to the expected RML; where a test
// folder carries data, both RMLs are also executed and their output graphs compared.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { DataFactory, Parser, type Quad } from 'n3';
import { executeMapping, NQuadsCollector, readRmlMapping } from '../../lib/rml/index.ts';
import { MappingGraph } from '../../lib/rml/graph.ts';
import { yarrrmlToRmlQuads, type YarrrmlOptions } from '../../lib/rml/yarrrml.ts';
import { PEER_SUITES } from './peer.ts';
import { canonical, readNQuads } from './support.ts';

const root = `${PEER_SUITES}yarrrml-parser/`;
const known = (
  JSON.parse(readFileSync(new URL('./known-failures.json', import.meta.url), 'utf8')) as Record<
    string,
    Record<string, string>
  >
)['yarrrml-parser']!;

interface Entry {
  kind: string;
  name: string;
  inputs: string[];
  expected: string;
  options: string;
}

const entries = (JSON.parse(readFileSync(`${root}manifest.json`, 'utf8')) as { tests: Entry[] }).tests.filter(
  (e) => e.kind === 'yarrrml-to-rml',
);

function optionsOf(entry: Entry): YarrrmlOptions {
  if (entry.options.startsWith('(defaults')) return { includeMetadata: true, strict: false };
  return { includeMetadata: false, class: entry.options.includes('class: true'), strict: false };
}

const RR = 'http://www.w3.org/ns/r2rml#';

/**
 * `rr:constant "http://…"; rr:termType rr:IRI` and `rr:constant <http://…>` mean the same to
 * an RML engine (ours reads both as an IRI); parser 1.12.2 writes the latter where the suite
 * (1.12.0) expects the former, so both sides are compared in the IRI form.
 */
function iriConstants(quads: Quad[]): Quad[] {
  const iriTyped = new Set(
    quads
      .filter((q) => q.predicate.value === `${RR}termType` && q.object.value === `${RR}IRI`)
      .map((q) => q.subject.value),
  );
  return quads.map((q) =>
    q.predicate.value === `${RR}constant` && q.object.termType === 'Literal' && iriTyped.has(q.subject.value)
      ? DataFactory.quad(q.subject, q.predicate, DataFactory.namedNode(q.object.value), q.graph)
      : q,
  );
}

/** Cases with data: both RMLs ran with equal outputs, or both were refused with the same error. */
let executed = 0;
let refused = 0;

async function execute(quads: Quad[], dir: string): Promise<string> {
  try {
    const sink = new NQuadsCollector();
    await executeMapping(readRmlMapping(new MappingGraph(quads)), sink, { mappingDir: dir, cwd: dir });
    return await canonical(readNQuads(sink.text()));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** Why a case fails, or undefined. */
async function check(entry: Entry): Promise<string | undefined> {
  const inputs = entry.inputs.map((i) => readFileSync(`${root}test/${i}`, 'utf8'));
  let ours: Quad[];
  try {
    ours = yarrrmlToRmlQuads(inputs, optionsOf(entry)).quads;
  } catch (error) {
    return `translation failed: ${(error as Error).message}`;
  }
  const expectedPath = `${root}test/${entry.expected}`;
  // No base: the parser itself leaves relative IRIs (YARRRML `base: '#'`) relative.
  const expected = new Parser().parse(readFileSync(expectedPath, 'utf8'));
  const [a, b] = await Promise.all([canonical(iriConstants(ours)), canonical(iriConstants(expected))]);
  if (a !== b) return `RML not isomorphic:\n${a}---- expected:\n${b}`;
  const dir = dirname(`${root}test/${entry.inputs[0]}`);
  if (!existsSync(dir) || !readdirSync(dir).some((f) => /\.(csv|tsv|json|xml)$/.test(f))) return undefined;
  const [expectedOutput, ourOutput] = [await execute(expected, dir), await execute(ours, dir)];
  if (ourOutput !== expectedOutput) return `outputs differ:\n${ourOutput}---- expected:\n${expectedOutput}`;
  if (expectedOutput.startsWith('error: ')) refused += 1;
  else executed += 1;
  return undefined;
}

test('peer suite yarrrml-parser (YARRRML → RML)', async (t) => {
  const failures = new Map<string, string>();
  for (const entry of entries) {
    const why = await check(entry);
    // Names repeat across folders; the expected file identifies a case.
    if (why !== undefined) failures.set(entry.expected, why);
  }
  t.diagnostic(
    `yarrrml-parser: ${entries.length - failures.size}/${entries.length} pass, ${failures.size} known failures`,
  );
  t.diagnostic(
    `yarrrml-parser: of the cases with data, ${executed} executed both RMLs with equal outputs, ` +
      `${refused} refused both with the same error`,
  );
  // Every case with data but one (template-escape: an example.com function no engine has) runs.
  assert.equal(refused, 1, 'cases with data whose RMLs the engine refuses');
  const unexpected = [...failures]
    .filter(([name]) => !(name in known))
    .map(([n, why]) => `${n}: ${why.slice(0, 1500)}`);
  const fixed = Object.keys(known).filter((name) => !failures.has(name));
  assert.deepEqual(
    { unexpected, fixed },
    { unexpected: [], fixed: [] },
    'the failing cases differ from known-failures.json',
  );
});
