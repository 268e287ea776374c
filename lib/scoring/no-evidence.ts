/**
 * What a published score object carries in a dimension without data: its documented "no
 * evidence" value, so the spec's number fields are numbers in every state. The dimension keeps
 * weight 0 and its entry in missing_dimensions (with the reason), so score = Σ weight ×
 * dimension + adjustments holds exactly. Storage and scoring keep null; only the read models
 * publish these (docs/methodology.md, "No evidence").
 */

import type { ReputationDimension, RiskDimension } from "@/lib/domain/vocab";
import { CONSISTENCY, REPUTATION_FLOORS, WIN_RATE_PRIOR } from "./weights";

/**
 * Risk dimensions (higher is riskier): 0, nothing found against the token. It is where every
 * ramp of a dimension starts and lies below every floor and flag threshold, so it reads as "no
 * sign of this risk", never as a middling one (a 50 would sit on the severe-dimension floor).
 */
export const RISK_NO_EVIDENCE: Record<RiskDimension, number> = {
  holder_concentration_score: 0,
  liquidity_stability_score: 0,
  wash_trade_score: 0,
  smart_money_flow_score: 0,
};

/**
 * Reputation dimensions (higher is better): the middle of the scale, neither good nor bad, so a
 * record too short to judge reads as neither the best nor the worst. For the win rate and
 * consistency it is what their shrunk estimates say before any observation, their priors' mean.
 */
export const REPUTATION_NO_EVIDENCE: Record<ReputationDimension, number> = {
  win_rate: WIN_RATE_PRIOR.hits / WIN_RATE_PRIOR.n,
  entry_timing_score: 50,
  consistency_score: (100 * CONSISTENCY.prior.hits) / CONSISTENCY.prior.n,
  risk_drawdown_score: 50,
};

/** The reputation served for a wallet the worker has not scored yet: what scoring gives a wallet with no record. */
export const NO_EVIDENCE_REPUTATION = REPUTATION_FLOORS.no_record;

/** The dimensions as published: each one without data (null) as its no-evidence value. */
export function withNoEvidence<K extends string>(
  values: Record<K, number | null>,
  noEvidence: Record<K, number>,
): Record<K, number> {
  return Object.fromEntries((Object.keys(noEvidence) as K[]).map((k) => [k, values[k] ?? noEvidence[k]])) as Record<
    K,
    number
  >;
}
