// The benches' one percentile: nearest rank over sorted samples (p in percent, 0 < p <= 100).
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
