// "Did you mean …": the existing names closest to one that does not exist. Names are compared
// after folding case and the German transliteration the annotator applies (ü → ue, …), so
// `table-1-Prüfzeit` finds `table-1-Pruefzeit`.
const FOLD: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

function fold(name: string): string {
  return name.toLowerCase().replace(/[äöüß]/g, (c) => FOLD[c] ?? c);
}

/** Edit distance (insert, delete, substitute; one row of the table at a time). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitute);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to `limit` names of `candidates` near `name`, closest first; none when nothing is near. */
export function closestNames(name: string, candidates: Iterable<string>, limit = 3): string[] {
  // A long name is no typo of a short one; this also bounds the work on hostile input.
  if (name.length > 200) return [];
  const target = fold(name);
  // Near: at most a third of the longer name changed (and at least 2 edits allowed).
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const folded = fold(candidate);
    const distance = editDistance(target, folded);
    if (distance <= Math.max(2, Math.floor(Math.max(target.length, folded.length) / 3))) {
      scored.push({ candidate, distance });
    }
  }
  return scored
    .sort((x, y) => x.distance - y.distance || x.candidate.localeCompare(y.candidate))
    .slice(0, limit)
    .map((s) => s.candidate);
}

/** A name as words are compared: folded, and only its letters and digits. */
const bare = (name: string): string => fold(name).replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The template individuals a data entity's text suggests, best first (at most `limit`): the
 * names near it (closestNames: `Specimen ID` → `SpecimenID`), then names that hold it, three
 * letters or more (`Force` → `ForceMeasurement`), the shortest first. A name the text
 * holds is no suggestion: `Standardkraft` (a force) is no `Standard`.
 */
export function suggestIndividuals(text: string, individuals: readonly string[], limit = 3): string[] {
  const target = bare(text);
  // The first individual of each bare name stands for it.
  const byBare = new Map<string, string>();
  for (const name of individuals) if (!byBare.has(bare(name))) byBare.set(bare(name), name);
  const chosen = closestNames(target, byBare.keys(), limit).map((b) => byBare.get(b)!);
  if (target.length >= 3 && target.length <= 200) {
    const holding = individuals
      .filter((name) => !chosen.includes(name))
      .map((name) => ({ name, b: bare(name) }))
      .filter(({ b }) => b.includes(target))
      .sort((x, y) => x.b.length - y.b.length);
    chosen.push(...holding.map(({ name }) => name));
  }
  return chosen.slice(0, limit);
}

/**
 * Whether a suggestion is sure enough to be chosen before the person looks: the individual's name
 * holds the whole text (`Specimen ID` → `SpecimenID`, `Force` → `ForceMeasurement`). A near name
 * only (`Standardweg` → `Standard`) stays a suggestion.
 */
export function holdsText(individual: string, text: string): boolean {
  const target = bare(text);
  return target.length >= 3 && bare(individual).includes(target);
}
