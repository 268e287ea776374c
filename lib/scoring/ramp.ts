/** Numeric helpers shared by every score: clamping, linear ramps and weighted composites. */

export const clamp = (x: number, lo = 0, hi = 1): number => Math.min(hi, Math.max(lo, x));

/**
 * ramp(x; from, to) = clamp((x - from) / (to - from)): 0 at `from`, 1 at `to`, linear between.
 * With from > to it falls instead of rising, so "less is riskier" terms need no special case.
 */
export function ramp(x: number, from: number, to: number): number {
  if (from === to) return x >= to ? 1 : 0;
  return clamp((x - from) / (to - from));
}

/** One term of a dimension score: how much it weighs and where its ramp starts and saturates. */
export type RampTerm = { weight: number; from: number; to: number };
export type RampSpec = Record<string, RampTerm>;

/** Σ wᵢvᵢ / Σ wᵢ over the given parts; parts whose value is null are left out (weights renormalised). */
export function weightedMean(parts: { weight: number; value: number | null }[]): number {
  let sum = 0;
  let total = 0;
  for (const { weight, value } of parts) {
    if (value === null || !Number.isFinite(value)) continue;
    sum += weight * value;
    total += weight;
  }
  return total > 0 ? sum / total : 0;
}

/**
 * A dimension score 0..100 from named metric values and the spec of their ramps: the weighted
 * mean of ramp(metric) over the metrics that are known (null = unknown, left out).
 */
export function rampScore<K extends string>(metrics: Record<K, number | null>, spec: Record<K, RampTerm>): number {
  const keys = Object.keys(spec) as K[];
  const parts = keys.map((k) => {
    const v = metrics[k];
    return { weight: spec[k].weight, value: v === null ? null : ramp(v, spec[k].from, spec[k].to) };
  });
  return toScore(weightedMean(parts));
}

/** A fraction 0..1 as a score 0..100 (clamped). */
export const toScore = (fraction: number): number => clamp(fraction) * 100;

/** Shrinks `hits` of `n` toward the prior `priorHits / priorN` (a Beta prior): (hits + a) / (n + b). */
export const shrunkRate = (hits: number, n: number, priorHits: number, priorN: number): number =>
  (hits + priorHits) / (n + priorN);

export const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
