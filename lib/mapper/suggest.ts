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
