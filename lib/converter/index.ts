// The converter's domain (spec "RDF conversion service"): plain functions from a mapping, data
// and a URL loader to results; the consumer supplies the loader (guarded fetch, blob store).
export {
  checkMapping,
  checkMappingAt,
  checkRules,
  type CheckRequest,
  type CheckResult,
  type RuleCheck,
} from './checkmapping.ts';
export {
  createRdf,
  joinedFileName,
  type Conversion,
  type ConvertRequest,
  type RuleOutcome,
} from './createrdf.ts';
export { readData, type DataDocument, type Loaded, type Loader } from './data.ts';
export { readYarrrmlMapping, firstAccess, type YarrrmlMapping } from './mapping.ts';
export { testMapping, type RuleReport, type TestReport } from './diagnose.ts';
