/** The median of some numbers: the middle one, or the mean of the two middle ones for an even count. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The median item by one of its figures (for an even count, the upper of the two middle ones), so that the
 * other figures reported with it come from the same round.
 */
export function medianBy<T>(items: readonly T[], figure: (item: T) => number): T {
  if (items.length === 0) throw new Error('medianBy: no items');
  const sorted = [...items].sort((a, b) => figure(a) - figure(b));
  return sorted[sorted.length >> 1]!;
}

/** The `p` quantile (0..1) by the nearest-rank method; NaN when there are no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}
