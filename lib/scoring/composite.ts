/**
 * The one rule that turns a breakdown into a published score, for risk and reputation alike:
 * the weighted mean of the dimensions that have data (the weights of the others shared out in
 * proportion), then the adjustments, rounded to the published precision. Everything it reads is
 * in the API's score objects, so anyone can redo it from a response (docs/methodology.md).
 */

import type {
  MissingReason,
  ReputationDimension,
  RiskDimension,
  TokenAdjustmentReason,
  WalletAdjustmentReason,
} from "@/lib/domain/vocab";
import { clamp } from "./ramp";

/** A named bound on a composite: raised to at least min_score, or held to at most max_score. */
export type Adjustment<R extends string = TokenAdjustmentReason | WalletAdjustmentReason> =
  | { reason: R; min_score: number }
  | { reason: R; max_score: number };

/** A dimension without a value, and why (each dimension has one way of lacking data). */
export type MissingDimension<K extends string = RiskDimension | ReputationDimension> = {
  dimension: K;
  reason: MissingReason;
};

/**
 * Scores and dimensions are published, stored and composed at one decimal, rounded half up as
 * by hand: the nudge absorbs binary error at a half ((0.2·33.3 + 0.2·100) / 0.4 = 66.65 comes
 * out as 66.6499… in floating point, and is 66.7).
 */
export const roundScore = (x: number) => Math.round(x * 10 + 1e-9) / 10;

/** A dimension at the published precision; null (no data) stays null. */
export const publishedScore = (v: number | null) => (v === null ? null : roundScore(v));

/** Each dimension's share of the composite: its weight over the weights of the dimensions with data. */
export function effectiveWeights<K extends string>(
  weights: Record<K, number>,
  values: Record<K, number | null>,
): Record<K, number> {
  const keys = Object.keys(weights) as K[];
  const known = keys.filter((k) => values[k] !== null).reduce((total, k) => total + weights[k], 0);
  return Object.fromEntries(keys.map((k) => [k, values[k] === null || known === 0 ? 0 : weights[k] / known])) as Record<
    K,
    number
  >;
}

/** Σ wᵢ·vᵢ / Σ wᵢ over the dimensions with data, in the weights' order; 0 when none has data. */
export function weightedScore<K extends string>(weights: Record<K, number>, values: Record<K, number | null>): number {
  let sum = 0;
  let total = 0;
  for (const k of Object.keys(weights) as K[]) {
    const v = values[k];
    if (v === null) continue;
    sum += weights[k] * v;
    total += weights[k];
  }
  return total > 0 ? sum / total : 0;
}

const isFloor = (a: Adjustment<string>): a is { reason: string; min_score: number } => "min_score" in a;

/** The weighted score raised to the highest min_score, then held to the lowest max_score, 0..100, rounded. */
export function adjustedScore(weighted: number, adjustments: Adjustment<string>[]): number {
  const floor = Math.max(0, ...adjustments.filter(isFloor).map((a) => a.min_score));
  const cap = Math.min(100, ...adjustments.flatMap((a) => (isFloor(a) ? [] : [a.max_score])));
  return roundScore(clamp(Math.max(weighted, floor), 0, cap));
}

export type Composite<R extends string> = { weighted: number; score: number; adjustments: Adjustment<R>[] };

/**
 * The published score of a breakdown (values at the published precision) under the bounds that
 * apply to it. Every bound that applies is kept, whether or not the weighted score was beyond
 * it: a rugger's cap is worth knowing even when its record already scores below it.
 */
export function composite<K extends string, R extends string>(
  weights: Record<K, number>,
  values: Record<K, number | null>,
  adjustments: Adjustment<R>[],
): Composite<R> {
  const weighted = roundScore(weightedScore(weights, values));
  return { weighted, score: adjustedScore(weighted, adjustments), adjustments };
}

/** Whether an adjustment set the score: the weighted score was beyond its bound. */
export const moved = (a: Adjustment<string>, weighted: number) =>
  isFloor(a) ? a.min_score > weighted : a.max_score < weighted;

/** The dimensions without a value, each with its reason. */
export function missingDimensions<K extends string>(
  values: Record<K, number | null>,
  reasons: Record<K, MissingReason>,
): MissingDimension<K>[] {
  return (Object.keys(reasons) as K[])
    .filter((k) => values[k] === null)
    .map((dimension) => ({ dimension, reason: reasons[dimension] }));
}

/**
 * What a breakdown (values on the composite's 0..100 scale) says about its composite: each
 * dimension's effective weight, the weighted score, the dimensions without data. The read
 * models publish it beside the score, so a reader can redo the arithmetic.
 */
export function explainBreakdown<K extends string>(
  weights: Record<K, number>,
  values: Record<K, number | null>,
  gaps: Record<K, MissingReason>,
) {
  const effective = effectiveWeights(weights, values);
  return {
    weights: Object.fromEntries(
      Object.entries<number>(effective).map(([k, w]) => [k, Math.round(w * 1e4) / 1e4]),
    ) as Record<K, number>,
    weightedScore: roundScore(weightedScore(weights, values)),
    missingDimensions: missingDimensions(values, gaps),
  };
}
