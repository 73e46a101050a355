/** The p-th percentile (0–100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export type Spread = { n: number; p50: number; p95: number; max: number };

export function spread(samples: readonly number[]): Spread {
  return { n: samples.length, p50: percentile(samples, 50), p95: percentile(samples, 95), max: Math.max(...samples) };
}

export function sum(samples: readonly number[]): number {
  return samples.reduce((total, sample) => total + sample, 0);
}
