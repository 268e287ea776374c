/**
 * Scores in words: the dimensions' names, why a dimension has no value and why a score is not
 * its weighted breakdown. The dashboard and the summaries read them from here.
 */

import type {
  Classification,
  MissingReason,
  ReputationDimension,
  RiskDimension,
  TokenAdjustmentReason,
  WalletAdjustmentReason,
} from "@/lib/domain/vocab";
import type { Adjustment } from "./composite";
import { formatCount, formatShare, formatUsd } from "./format";
import {
  CLASSIFICATION_RULE,
  CONSISTENCY,
  ENTRY_TIMING,
  INSIDER_DUMP,
  MIN_CLOSED_POSITIONS,
  NEW_TOKEN,
  SEVERE_DIMENSION,
  WINDOWS,
} from "./weights";

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

const SEVERE_HOLDERS = SEVERE_DIMENSION.from.holder_concentration_score;
const SEVERE_LIQUIDITY = SEVERE_DIMENSION.from.liquidity_stability_score;
const INSIDER_SOLD = formatShare(INSIDER_DUMP.minSoldShare);

export const ADJUSTMENT_REASON_TEXT: Record<TokenAdjustmentReason | WalletAdjustmentReason, string> = {
  wash_trading: "the wash trading flag is raised",
  liquidity_pulled: "the liquidity pulled flag is raised: a pulled token is always critical",
  concentrated_ownership: "the concentrated ownership flag is raised",
  sybil_cluster: "the sybil cluster flag is raised",
  smart_money_exiting: "the smart money exiting flag is raised",
  concentrated_wash_trading: "wash trading in a token a few own: the pump before their dump",
  severe_holder_concentration: `holder concentration is ${SEVERE_HOLDERS} or more: a few owners can dump the supply`,
  severe_liquidity_instability: `liquidity instability is ${SEVERE_LIQUIDITY} or more: the pool can disappear`,
  new_token: `launched less than ${NEW_TOKEN.maxAgeHours} hours ago, when most rug pulls happen`,
  no_record: "nothing to judge yet (no position held or closed): neutral, not the worst record",
  low_confidence: "too little record to tell skill from luck (low confidence)",
  pulled_own_launch_liquidity: "it pulled the liquidity of a token it launched",
  insider_dump: `it sold ${INSIDER_SOLD} or more of a launch whose creator it is or is linked to`,
};

const R = CLASSIFICATION_RULE;
const SNIPED_SHARE = formatShare(R.sniperShareOfPositions);
const SNIPED = `${SNIPED_SHARE} or more of its tokens within ${ENTRY_TIMING.sniperMaxBlocks} blocks of launch`;

/**
 * What each class says about a wallet (docs/methodology.md, classification). Insider names a link,
 * not conduct: how an insider behaved is in its score's caps (insider_dump, pulled_own_launch_liquidity).
 */
export const CLASSIFICATION_TEXT: Record<Classification, string> = {
  smart_money: `a proven, profitable record: reputation ${R.smartMoneyMinReputation}+ at medium confidence or more`,
  sniper: `bought ${SNIPED}`,
  bot: `${R.botTradesPerMinute} or more trades within a minute`,
  insider: "linked to a token's creator (created one, funded or was funded by one, or shares its funder): not conduct",
  whale: `a portfolio of ${formatUsd(R.whaleMinPortfolioUsd)}+ or one buy of ${formatUsd(R.whaleMinBuyUsd)}+`,
  wash_trader: "trades with itself (round trips) in some token",
  fresh: `first seen less than ${R.freshMaxAgeHours} hours ago, with fewer than ${R.freshMaxTrades} trades`,
  retail: "none of the classes above",
};

/** "At least 85: the liquidity pulled flag is raised…" */
export function adjustmentText(a: Adjustment<string>): string {
  const bound = "min_score" in a ? `At least ${a.min_score}` : `At most ${a.max_score}`;
  const reason = ADJUSTMENT_REASON_TEXT[a.reason as TokenAdjustmentReason | WalletAdjustmentReason];
  return `${bound}: ${reason ?? a.reason.replaceAll("_", " ")}`;
}
