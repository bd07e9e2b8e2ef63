/** Percentile of sorted-ascending samples (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function summary(samples: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1]! };
}

/** The middle value (the upper one of an even count). */
export function middle(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/**
 * A figure against its baseline: the median of each round's ratio, both measured in that round.
 * The machine drifts between rounds (bare Koa moved from 23,000 to 40,000 requests/s in one run),
 * less within one: a ratio of two medians could pair a fast round's figure with a slow round's baseline.
 */
export function pairedRatio(values: number[], baselines: number[]): number {
  return middle(roundRatios(values, baselines));
}

/** Each round's ratio of its value to its baseline, in the rounds' order (the report shows their spread). */
export function roundRatios(values: number[], baselines: number[]): number[] {
  if (values.length !== baselines.length || values.length === 0) throw new Error('pairedRatio: one baseline per value');
  return values.map((value, i) => value / baselines[i]!);
}
