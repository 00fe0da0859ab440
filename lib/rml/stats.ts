// Per-rule statistics, counted during the run that produces the graph (not by a second pass):
// the converter's checkmapping and test endpoints report them.

export interface Comparison {
  function: string;
  left: string;
  right: string;
  result: boolean;
}

export interface RuleStatistics {
  /** The triples map node (IRI or `_:` blank node id). */
  triplesMap: string;
  /** rdfs:label of the triples map (the YARRRML mapping name) or its local name. */
  name: string;
  /** Records of the logical source the rule iterated over. */
  iterations: number;
  /** Records for which the subject map produced a subject (the rule's conditions held). */
  passed: number;
  /** Comparisons made by condition functions (equal, notEqual). */
  comparisons: number;
  /** The first distinct comparisons, for showing why a rule did or did not apply. */
  compared: Comparison[];
  /** Triples (quads) emitted, duplicates included. */
  triples: number;
  /**
   * Terms not made because of a data error (an invalid IRI from a cell, an ill-typed literal,
   * an invalid language tag from the data): legacy mappings skip them, as RMLMapper does, and
   * keep every other triple.
   */
  skipped: number;
  /** The first distinct data errors, for reports (`labld rml`, the converter's `test`). */
  errors: string[];
}

/** How many distinct comparisons a rule keeps as examples. */
const COMPARED_SAMPLE = 20;
/** How many distinct data errors a rule keeps for its report. */
const ERROR_SAMPLE = 20;

export function emptyStatistics(triplesMap: string, name: string): RuleStatistics {
  return {
    triplesMap,
    name,
    iterations: 0,
    passed: 0,
    comparisons: 0,
    compared: [],
    triples: 0,
    skipped: 0,
    errors: [],
  };
}

/** Counts a skipped term in `stats`, keeping the first distinct messages. */
export function recordSkipped(stats: RuleStatistics, message: string): void {
  stats.skipped += 1;
  if (stats.errors.length < ERROR_SAMPLE && !stats.errors.includes(message)) stats.errors.push(message);
}

/** A function context that records comparisons into `stats`. */
export function comparisonRecorder(stats: RuleStatistics) {
  const seen = new Set<string>();
  return {
    compared(fn: string, left: string, right: string, result: boolean): void {
      stats.comparisons += 1;
      if (stats.compared.length >= COMPARED_SAMPLE) return;
      const key = `${fn}\u0000${left}\u0000${right}`;
      if (seen.has(key)) return;
      seen.add(key);
      stats.compared.push({ function: fn, left, right, result });
    },
  };
}
