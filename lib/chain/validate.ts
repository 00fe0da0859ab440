// The chain's validate step (issue 27, beyond the spec): after convert, the joined graph is
// checked with SHACL against the shapes the mapping library holds for the mapping that made it
// — a Turtle resource beside the mapping in its library dataset, named after it with
// `-shapes.ttl` (`tensile-map.yaml` → `tensile-map-shapes.ttl`). The SHACL validation report is
// stored as `<base>-validation.ttl`; its results, in words, go into the step's summary, where
// the dataset page lists them and the Load button reads whether the graph conforms. No shapes
// for the mapping: the step ends done with "no shapes" and stores nothing (not a failure).
// The engine is the converter's (lib/converter/shacl.ts), the one /api/rdfvalidator uses. The
// outcome (conforms, nonconforming, unchecked: no shapes) is the search facet `shacl`.
import { text as readText } from 'node:stream/consumers';
import type * as RDF from '@rdfjs/types';
import { storeDownload } from '../blobs/download.ts';
import { validateShacl } from '../converter/shacl.ts';
import { parse, serialize } from '../rdf/index.ts';
import type { ChainFile } from './files.ts';
import { baseName, outputName } from './names.ts';
import { stepEntry } from './pipeline.ts';
import { elapsedMs, type StepSummary } from './status.ts';
import type { StepContext, StepOutput } from './steps.ts';

/** One result of the report, as a person reads it. */
export interface ValidationResult {
  focus: string;
  path: string;
  message: string;
  /** Violation, Warning or Info (sh:resultSeverity's local name). */
  severity: string;
}

/** What the step's summary says of the report (`conforms` absent: there were no shapes). */
export interface ValidationSummary {
  conforms?: boolean;
  /** The results, at most RESULTS_KEPT of them (the stored report has them all). */
  results: ValidationResult[];
  total: number;
}

declare module './status.ts' {
  interface StepSummary {
    /** validate: the SHACL report in words. */
    validation?: ValidationSummary;
  }
}

/** Results kept in the summary: the status row stays small; the report resource holds the rest. */
const RESULTS_KEPT = 50;

/** The note of a step that found no shapes. */
export const NO_SHAPES = 'no shapes';

/** The name of the shapes resource beside a mapping: `<mapping base>-shapes.ttl`. */
export const shapesNameFor = (mappingName: string) => `${baseName(mappingName)}-shapes.ttl`;

const SH = 'http://www.w3.org/ns/shacl#';

/** The results of a SHACL report graph, in words. */
export function reportResults(report: readonly RDF.Quad[]): ValidationResult[] {
  const of = (subject: RDF.Term, local: string) =>
    report.find((q) => q.subject.equals(subject) && q.predicate.value === `${SH}${local}`)?.object;
  return report
    .filter((q) => q.predicate.value === `${SH}result`)
    .map(({ object: result }) => {
      const severity = of(result, 'resultSeverity')?.value ?? `${SH}Violation`;
      return {
        focus: of(result, 'focusNode')?.value ?? '',
        path: of(result, 'resultPath')?.value ?? '',
        message: of(result, 'resultMessage')?.value ?? of(result, 'sourceConstraintComponent')?.value ?? '',
        severity: severity.slice(severity.lastIndexOf('#') + 1),
      };
    });
}

async function quadsOf(file: ChainFile, context: StepContext, field: string): Promise<RDF.Quad[]> {
  const text = await readText(context.blobs.open(file.blob, field));
  return parse(text, 'turtle', { baseIRI: file.url, field });
}

/**
 * Validates the joined graph of the source `csvName` against `shapes` (none: "no shapes").
 * Shapes that are not Turtle fail the step as the mapping library's to correct (invalid).
 */
export async function validateStep(
  input: { joined: ChainFile; csvName: string; shapes?: ChainFile },
  context: StepContext,
): Promise<{ report?: StepOutput; summary: StepSummary }> {
  const started = performance.now();
  if (!input.shapes) {
    return {
      summary: {
        durationMs: elapsedMs(started),
        note: NO_SHAPES,
        outcome: 'unchecked',
        validation: { results: [], total: 0 },
      },
    };
  }
  const shapes = await quadsOf(input.shapes, context, 'shapes');
  const data = await quadsOf(input.joined, context, 'joined');
  context.signal?.throwIfAborted();
  const { conforms, report } = await validateShacl(shapes, data);
  const makes = stepEntry('validate').makes!;
  const name = outputName(makes, input.csvName);
  const stored = await storeDownload(
    context.blobs,
    await serialize(report, 'turtle'),
    name.contentType,
    name.name,
  );
  const results = reportResults(report);
  return {
    report: stored,
    summary: {
      durationMs: elapsedMs(started),
      triples: data.length,
      note: conforms
        ? `conforms to ${input.shapes.name}`
        : `does not conform to ${input.shapes.name}: ${results.length} result(s)`,
      outcome: conforms ? 'conforms' : 'nonconforming',
      validation: { conforms, results: results.slice(0, RESULTS_KEPT), total: results.length },
    },
  };
}
