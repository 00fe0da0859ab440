// The W3C SHACL test suite (peer-suites/shacl-w3c): every sht:Validate entry of the core (or
// sparql) part, with its data and shapes graphs and the expected result, and the comparison
// the suite's README describes: sh:conforms, and the set of results on focus node, path,
// value, source shape, constraint component and severity (blank nodes compared as blank).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as RDF from '@rdfjs/types';
import rdf from '@zazuko/env';
import { Parser, type Quad } from 'n3';
import SHACLValidator from 'rdf-validate-shacl';
import { shaclDataset, validateShacl, type ShaclReport } from '../../lib/converter/shacl.ts';
import { peerSuite } from '../support/shared.ts';

/** The SHACL engines measured and cross-checked: the converter's, then rdf-validate-shacl (a devDependency). */
export const SHACL_ENGINES = {
  'shacl-engine': validateShacl,
  'rdf-validate-shacl': async (
    shapes: Iterable<RDF.Quad>,
    data: Iterable<RDF.Quad>,
  ): Promise<ShaclReport> => {
    const validator = new SHACLValidator(shaclDataset(shapes), { factory: rdf });
    const report = await validator.validate(shaclDataset(data));
    return { conforms: report.conforms, report: [...report.dataset] };
  },
};
export type ShaclEngine = keyof typeof SHACL_ENGINES;

const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const SH = 'http://www.w3.org/ns/shacl#';
const MF = 'http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#';
const SHT = 'http://www.w3.org/ns/shacl-test#';

export interface SuiteTest {
  name: string;
  data: Quad[];
  shapes: Quad[];
  /** Expected: a report, or `failure` (the engine must refuse the shapes). */
  expected: { failure: true } | { failure: false; conforms: boolean; results: string[] };
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? files(path)
      : name.endsWith('.ttl') && name !== 'manifest.ttl'
        ? [path]
        : [];
  });
}

const parseFile = (path: string): Quad[] =>
  new Parser({ baseIRI: pathToFileURL(path).href }).parse(readFileSync(path, 'utf8'));

const objectsOf = (quads: RDF.Quad[], s: RDF.Term, p: string) =>
  quads.filter((q) => q.subject.equals(s) && q.predicate.value === p).map((q) => q.object);

const show = (t: RDF.Term | undefined) =>
  t === undefined ? '-' : t.termType === 'BlankNode' ? '_' : `${t.termType}:${t.value}`;

/** The comparable form of a report's results. */
export function resultKeys(report: RDF.Quad[], reportNode?: RDF.Term): string[] {
  const nodes = reportNode
    ? objectsOf(report, reportNode, `${SH}result`)
    : report.filter((q) => q.predicate.value === `${SH}result`).map((q) => q.object);
  return nodes
    .map((r) =>
      ['focusNode', 'resultPath', 'value', 'sourceShape', 'sourceConstraintComponent', 'resultSeverity']
        .map((p) => show(objectsOf(report, r, `${SH}${p}`)[0]))
        .join(' | '),
    )
    .sort();
}

export function loadSuite(part: 'core' | 'sparql'): SuiteTest[] {
  const root = peerSuite(`shacl-w3c/data-shapes-test-suite/tests/${part}`);
  const tests: SuiteTest[] = [];
  for (const path of files(root).sort()) {
    const quads = parseFile(path);
    for (const entry of quads.filter(
      (q) => q.predicate.value === `${RDF_NS}type` && q.object.value === `${SHT}Validate`,
    )) {
      const action = objectsOf(quads, entry.subject, `${MF}action`)[0]!;
      const graph = (p: string) => {
        const iri = objectsOf(quads, action, `${SHT}${p}`)[0]!.value;
        return iri === pathToFileURL(path).href ? quads : parseFile(new URL(iri).pathname);
      };
      const result = objectsOf(quads, entry.subject, `${MF}result`)[0]!;
      const expected =
        result.value === `${SHT}Failure`
          ? ({ failure: true } as const)
          : {
              failure: false as const,
              conforms: objectsOf(quads, result, `${SH}conforms`)[0]?.value === 'true',
              results: resultKeys(quads, result),
            };
      tests.push({
        name: path.slice(root.length + 1).replace(/\.ttl$/, ''),
        data: graph('dataGraph'),
        shapes: graph('shapesGraph'),
        expected,
      });
    }
  }
  return tests;
}

/** Whether an engine's answer (a report, or the error it threw) is what the test expects. */
export function passes(test: SuiteTest, outcome: { conforms: boolean; report: RDF.Quad[] } | Error): boolean {
  if (test.expected.failure) return outcome instanceof Error;
  if (outcome instanceof Error) return false;
  return (
    outcome.conforms === test.expected.conforms &&
    JSON.stringify(resultKeys(outcome.report)) === JSON.stringify(test.expected.results)
  );
}
