// The RML engine's public face: parse a mapping (RML Turtle, or YARRRML through the parser),
// execute it into a quad sink, and read per-rule statistics from the same run.
import { executeMapping, type ExecuteOptions, type ExecutionResult } from './executor.ts';
import { parseMapping } from './mapping.ts';
import { NQuadsCollector } from './sink.ts';

export { executeMapping, DEFAULT_BASE_IRI, type ExecuteOptions, type ExecutionResult } from './executor.ts';
export { parseMapping, readRmlMapping, type ParseMappingOptions } from './mapping.ts';
export type * from './model.ts';
export { NQuadsCollector, NQuadsWriter, parseTerm, rdfjsSink, type QuadSink } from './sink.ts';
export type { RuleStatistics, Comparison } from './stats.ts';
export type { SourceContent, SourceOptions } from './sources.ts';
export { FunctionRegistry, type FunctionSpec, type FunctionContext } from './functions/registry.ts';
export { DEFAULT_FUNCTIONS } from './functions/library.ts';
export { RmlError, type ExpressionFault, type RmlErrorPart } from './errors.ts';
export {
  normalizeYarrrmlText,
  readYarrrml,
  yarrrmlBase,
  yarrrmlToMapping,
  yarrrmlToRml,
  yarrrmlToRmlQuads,
  type YarrrmlOptions,
} from './yarrrml.ts';

export interface RunResult extends ExecutionResult {
  /** The produced dataset as N-Quads text. */
  nquads: string;
}

/** Parses and executes an RML (Turtle) mapping, collecting the output in memory. */
export async function runRml(
  turtle: string,
  options: ExecuteOptions & { mappingBaseIri?: string } = {},
): Promise<RunResult> {
  const mapping = parseMapping(turtle, { baseIri: options.mappingBaseIri });
  const sink = new NQuadsCollector();
  const result = await executeMapping(mapping, sink, options);
  return { ...result, nquads: sink.text() };
}
