// Percentile summaries of latency samples (nearest-rank), shared by every part.

export interface Summary {
  readonly n: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly max: number
  readonly mean: number
}

const rank = (sorted: ArrayLike<number>, p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]

export const summarize = (samples: ReadonlyArray<number>): Summary => {
  const sorted = Float64Array.from(samples).sort()
  let sum = 0
  for (const v of sorted) sum += v
  return {
    n: sorted.length,
    p50: rank(sorted, 50),
    p95: rank(sorted, 95),
    p99: rank(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    mean: sorted.length ? sum / sorted.length : NaN,
  }
}

/** Rounds for display and JSON: latencies to the microsecond, everything else to 3 significant-ish decimals. */
export const round = (v: number, digits = 3): number => (Number.isFinite(v) ? Number(v.toFixed(digits)) : v)
