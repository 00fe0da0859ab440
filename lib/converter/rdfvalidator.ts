// /api/rdfvalidator: a data graph checked against SHACL shapes, both fetched by URL. The
// original's endpoint always answered 422 (it guessed formats from the downloaded bytes
// wrongly, research §3.9); here the format comes from the content, the Content-Type and the
// name, and the answer carries the spec's fields plus the original's declared ones.
import type * as RDF from '@rdfjs/types';
import { invalid } from '../process/errors.ts';
import { serialize } from '../rdf/index.ts';
import { readGraph, type Loader } from './data.ts';
import { validateShacl } from './shacl.ts';

const SH = 'http://www.w3.org/ns/shacl#';
const FIELDS: [string, string][] = [
  ['Severity', 'resultSeverity'],
  ['Source Shape', 'sourceShape'],
  ['Focus Node', 'focusNode'],
  ['Result Path', 'resultPath'],
  ['Value Node', 'value'],
  ['Message', 'resultMessage'],
];

export interface ValidationAnswer {
  conforms: boolean;
  /** Human-readable summary of the violations (pySHACL's layout). */
  conformance_report: string;
  /** The shapes graph the data was checked against, as Turtle. */
  shapes_graph: string;
  /** The validation report graph, as Turtle. */
  report_graph: string;
  // The original's declared response model: `valid` as text, `graph` the report graph.
  valid: string;
  graph: string;
}

const show = (t: RDF.Term) =>
  t.termType === 'Literal'
    ? JSON.stringify(t.value)
    : t.termType === 'BlankNode'
      ? `[_:${t.value}]`
      : `<${t.value}>`;

/** pySHACL-style text: a header, then one block per result. */
export function describeReport(conforms: boolean, report: RDF.Quad[]): string {
  const objects = (s: RDF.Term, p: string) =>
    report.filter((q) => q.subject.equals(s) && q.predicate.value === SH + p).map((q) => q.object);
  const results = report.filter((q) => q.predicate.value === `${SH}result`).map((q) => q.object);
  const lines = ['Validation Report', `Conforms: ${conforms ? 'True' : 'False'}`];
  if (results.length > 0) lines.push(`Results (${results.length}):`);
  for (const result of results) {
    const component = objects(result, 'sourceConstraintComponent')[0]?.value ?? '';
    lines.push(`Constraint Violation in ${component.replace(SH, '')} (${component}):`);
    for (const [label, p] of FIELDS) for (const o of objects(result, p)) lines.push(`\t${label}: ${show(o)}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function validateRdf(
  request: { shapesUrl: string; rdfUrl: string },
  load: Loader,
): Promise<ValidationAnswer> {
  const [shapesText, dataText] = await Promise.all([
    load(request.shapesUrl, 'shapes_url'),
    load(request.rdfUrl, 'rdf_url'),
  ]);
  const shapes = await readGraph(shapesText, 'shapes_url');
  const data = await readGraph(dataText, 'rdf_url');
  let result;
  try {
    result = await validateShacl(shapes, data);
  } catch (error) {
    throw invalid(`shapes_url: the shapes graph cannot be used: ${(error as Error).message}`, 'shapes_url');
  }
  const reportGraph = await serialize(result.report, 'turtle', { prefixes: { sh: SH } });
  return {
    conforms: result.conforms,
    conformance_report: describeReport(result.conforms, result.report),
    shapes_graph: await serialize(shapes, 'turtle', { prefixes: { sh: SH } }),
    report_graph: reportGraph,
    valid: result.conforms ? 'True' : 'False',
    graph: reportGraph,
  };
}
