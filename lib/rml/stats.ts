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
}

/** How many distinct comparisons a rule keeps as examples. */
const COMPARED_SAMPLE = 20;

export function emptyStatistics(triplesMap: string, name: string): RuleStatistics {
  return { triplesMap, name, iterations: 0, passed: 0, comparisons: 0, compared: [], triples: 0 };
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
