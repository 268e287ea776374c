/**
 * Scores in words: the dimensions' names, why a dimension has no value and why a score is not
 * its weighted breakdown. The dashboard and the summaries read them from here.
 */

import type { MissingReason, ReputationDimension, RiskDimension, TokenAdjustmentReason, WalletAdjustmentReason } from "@/lib/domain/vocab";
import type { Adjustment } from "./composite";
import { formatCount, formatShare } from "./format";
import { CONSISTENCY, INSIDER_DUMP, MIN_CLOSED_POSITIONS, NEW_TOKEN, SEVERE_DIMENSION, WINDOWS } from "./weights";

/** Higher is riskier. */
export const RISK_DIMENSION_LABELS: Record<RiskDimension, string> = {
  holder_concentration_score: "Holder concentration",
  liquidity_stability_score: "Liquidity instability",
  wash_trade_score: "Wash trading",
  smart_money_flow_score: "Smart money outflow",
};

/** Higher is better. */
export const REPUTATION_DIMENSION_LABELS: Record<ReputationDimension, string> = {
  win_rate: "Win rate",
  entry_timing_score: "Entry timing",
  consistency_score: "Consistency",
  risk_drawdown_score: "Risk and drawdown",
};

export const MISSING_REASON_TEXT: Record<MissingReason, string> = {
  no_holders: "nobody holds it yet",
  no_liquidity: "it has never had liquidity",
  no_recent_trades: `no trades in the last ${WINDOWS.swapLookbackSeconds / 86_400} days`,
  no_smart_money: "no smart-money wallet has held it",
  too_few_closed_positions: `fewer than ${formatCount(MIN_CLOSED_POSITIONS)} closed trades`,
  no_timed_entries: "no buy after the first blocks of a launch",
  too_few_closed_weeks: `closed trades in fewer than ${CONSISTENCY.minPeriods} weeks`,
  no_positions: "no positions",
};

export const ADJUSTMENT_REASON_TEXT: Record<TokenAdjustmentReason | WalletAdjustmentReason, string> = {
  wash_trading: "the wash trading flag is raised",
  liquidity_pulled: "the liquidity pulled flag is raised: a pulled token is always critical",
  concentrated_ownership: "the concentrated ownership flag is raised",
  sybil_cluster: "the sybil cluster flag is raised",
  smart_money_exiting: "the smart money exiting flag is raised",
  concentrated_wash_trading: "wash trading in a token a few own: the pump before their dump",
  severe_holder_concentration: `holder concentration is ${SEVERE_DIMENSION.from.holder_concentration_score} or more: a few owners can dump the supply`,
  severe_liquidity_instability: `liquidity instability is ${SEVERE_DIMENSION.from.liquidity_stability_score} or more: the pool can disappear`,
  new_token: `launched less than ${NEW_TOKEN.maxAgeHours} hours ago, when most rug pulls happen`,
  low_confidence: "too little record to tell skill from luck (low confidence)",
  pulled_own_launch_liquidity: "it pulled the liquidity of a token it launched",
  insider_dump: `it sold ${formatShare(INSIDER_DUMP.minSoldShare)} or more of a launch whose creator it is or is linked to`,
};

/** "At least 85: the liquidity pulled flag is raised…" */
export function adjustmentText(a: Adjustment<string>): string {
  const bound = "min_score" in a ? `At least ${a.min_score}` : `At most ${a.max_score}`;
  return `${bound}: ${ADJUSTMENT_REASON_TEXT[a.reason as TokenAdjustmentReason | WalletAdjustmentReason] ?? a.reason.replaceAll("_", " ")}`;
}
