// Summary statistics of latency samples: n, mean, p50, p99 (and min/max), all in milliseconds.

export interface Stats {
  n: number;
  mean: number;
  p50: number;
  p99: number;
  min: number;
  max: number;
}

/**
 * The p-th percentile (0–100) of ascending samples, interpolating linearly between the two nearest
 * ranks (numpy's default, "R-7"), so p50 of an even count is the mean of the middle two.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) throw new Error('percentile of no samples');
  if (p < 0 || p > 100) throw new Error(`percentile must be within 0..100, got ${p}`);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export function summarize(samples: readonly number[]): Stats {
  if (!samples.length) throw new Error('no samples to summarize');
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    mean: sorted.reduce((sum, x) => sum + x, 0) / sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
  };
}
