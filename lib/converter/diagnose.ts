// /api/test: the createrdf run with its per-rule statistics instead of the graph — for each
// rule the condition, the values the engine compared and whether they matched, and the
// dry-run verdict of checkmapping beside it. Like the original it always answers (a failure
// is `success: false` with the error), with the original's field names beside the spec's.
import { isDomainError, type DomainError } from '../process/errors.ts';
import { checkRules, type RuleCheck } from './checkmapping.ts';
import { createRdf, type Conversion, type ConvertRequest, type RuleOutcome } from './createrdf.ts';
import type { Loader } from './data.ts';
import { ruleOf, type YarrrmlMapping } from './mapping.ts';

export const PREVIEW_CHARS = 1000;

export interface RuleReport {
  rule_name: string;
  applied: boolean;
  sources: unknown;
  condition: unknown;
  predicate: string[];
  /** Records the rule's iterator yielded. */
  records: number;
  /** Records whose subject was made (the condition held). */
  subjects_affected: number;
  triples_generated: number;
  comparisons: number;
  /** The first distinct comparisons: function, the two values, the outcome. */
  compared: { function: string; left: string; right: string; result: boolean }[];
  /** checkmapping's verdict on the same rule (the dry run the catalogue ranks by). */
  check: { applicable: boolean; reason: string } | null;
  /** Terms not made on data errors (an invalid IRI from a value), and the first messages. */
  terms_skipped: number;
  data_errors: string[];
}

export interface TestReport {
  per_rule_statistics: RuleReport[];
  logs: string[];
  triple_count: number;
  output_preview: string;
  // The original's names (RDFConverter 1.3.3), for old clients.
  success: boolean;
  mapping_url: string;
  data_url: string | null;
  filename: string | null;
  num_rules_total: number;
  num_rules_applied: number;
  num_rules_skipped: number;
  num_triples_generated: number;
  rule_statistics: RuleReport[];
  error: string | null;
}

function predicates(rule: Record<string, unknown>): string[] {
  const po = rule.po ?? rule.predicateobjects ?? rule['predicates-objects'];
  const out: string[] = [];
  for (const entry of Array.isArray(po) ? po : []) {
    if (Array.isArray(entry) && typeof entry[0] === 'string') out.push(entry[0]);
    else if (typeof entry === 'object' && entry !== null) {
      const p = (entry as Record<string, unknown>).p ?? (entry as Record<string, unknown>).predicates;
      for (const x of Array.isArray(p) ? p : [p]) if (typeof x === 'string') out.push(x);
    }
  }
  return out;
}

function report(mapping: YarrrmlMapping, outcome: RuleOutcome, check: RuleCheck | undefined): RuleReport {
  const rule = ruleOf(mapping, outcome.rule);
  const sum = (f: (s: RuleOutcome['statistics'][number]) => number) =>
    outcome.statistics.reduce((n, s) => n + f(s), 0);
  return {
    rule_name: outcome.rule,
    applied: outcome.applied,
    sources: rule.sources ?? rule.source ?? null,
    condition: rule.condition ?? null,
    predicate: predicates(rule),
    records: sum((s) => s.iterations),
    subjects_affected: sum((s) => s.passed),
    triples_generated: sum((s) => s.triples),
    comparisons: sum((s) => s.comparisons),
    compared: outcome.statistics.flatMap((s) => s.compared),
    check: check ? { applicable: check.applicable, reason: check.reason } : null,
    terms_skipped: sum((s) => s.skipped),
    data_errors: outcome.statistics.flatMap((s) => s.errors),
  };
}

/**
 * The test report of a conversion. Bad input is reported in the answer as `describe` words it
 * (the service says `<status>: <detail>`, as the original did); a fault of labld is thrown.
 */
export async function testMapping(
  request: ConvertRequest,
  load: Loader,
  describe: (error: DomainError) => string,
): Promise<TestReport> {
  const logs: string[] = [];
  const base = {
    logs,
    mapping_url: request.mappingUrl,
    data_url: request.dataUrl ?? null,
  };
  let conversion: Conversion;
  try {
    conversion = await createRdf({ ...request, logs }, load);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    logs.push(`ERROR - converter - ${error.message}`);
    return {
      ...base,
      per_rule_statistics: [],
      triple_count: 0,
      output_preview: '',
      success: false,
      filename: null,
      num_rules_total: 0,
      num_rules_applied: 0,
      num_rules_skipped: 0,
      num_triples_generated: 0,
      rule_statistics: [],
      error: describe(error),
    };
  }
  const checks = checkRules(conversion.mapping, conversion.data.json);
  const rules = conversion.rules.map((outcome, i) => report(conversion.mapping, outcome, checks[i]));
  return {
    ...base,
    per_rule_statistics: rules,
    triple_count: conversion.tripleCount,
    output_preview: conversion.graph.slice(0, PREVIEW_CHARS),
    success: true,
    filename: conversion.filename,
    num_rules_total: conversion.rules.length,
    num_rules_applied: conversion.num_mappings_applied,
    num_rules_skipped: conversion.num_mappings_skipped,
    num_triples_generated: conversion.tripleCount,
    rule_statistics: rules,
    error: null,
  };
}
