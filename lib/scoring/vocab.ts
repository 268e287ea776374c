/**
 * The closed vocabularies of the scoring engine (DESIGN.md, "API decisions"). The API schemas,
 * the token filter and the scores all read them from here.
 */

export const RISK_FLAGS = ["wash_trading", "liquidity_pulled", "concentrated_ownership", "sybil_cluster", "smart_money_exiting"] as const;
export type RiskFlag = (typeof RISK_FLAGS)[number];

/** The breakdown of risk_score (RISK_WEIGHTS' keys, in their order). */
export const RISK_DIMENSIONS = ["holder_concentration_score", "liquidity_stability_score", "wash_trade_score", "smart_money_flow_score"] as const;
export type RiskDimension = (typeof RISK_DIMENSIONS)[number];

/** The breakdown of reputation_score (REPUTATION_WEIGHTS' keys, in their order). */
export const REPUTATION_DIMENSIONS = ["win_rate", "entry_timing_score", "consistency_score", "risk_drawdown_score"] as const;
export type ReputationDimension = (typeof REPUTATION_DIMENSIONS)[number];

/**
 * Why a token's risk_score is not its weighted breakdown: a raised flag's floor (the flag's
 * name), a severe dimension's floor, a new token's floor. Each is a min_score adjustment.
 */
export const TOKEN_ADJUSTMENT_REASONS = [...RISK_FLAGS, "severe_holder_concentration", "severe_liquidity_instability", "new_token"] as const;
export type TokenAdjustmentReason = (typeof TOKEN_ADJUSTMENT_REASONS)[number];

/** Why a wallet's reputation_score is not its weighted breakdown: caps (max_score adjustments). */
export const WALLET_ADJUSTMENT_REASONS = ["low_confidence", "pulled_own_launch_liquidity", "insider_dump"] as const;
export type WalletAdjustmentReason = (typeof WALLET_ADJUSTMENT_REASONS)[number];

/** Why a dimension has no value (it is null, and its weight goes to the others). */
export const MISSING_REASONS = [
  "no_holders",
  "no_liquidity",
  "no_recent_trades",
  "no_smart_money",
  "too_few_closed_positions",
  "no_timed_entries",
  "too_few_closed_weeks",
  "no_positions",
] as const;
export type MissingReason = (typeof MISSING_REASONS)[number];

/**
 * Signals a token score could not read, so the flags that rest on them cannot be raised (the
 * score does not read as clean on them): wallet_funding, when no wallet the sybil check reads has
 * a known funder.
 */
export const MISSING_SIGNALS = ["wallet_funding"] as const;
export type MissingSignal = (typeof MISSING_SIGNALS)[number];

/** Ordered from least to most risky; the bands are in weights.ts (RISK_LEVEL_UPPER_BOUNDS). */
export const RISK_LEVELS = ["low", "medium", "high", "critical"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const CLASSIFICATIONS = ["smart_money", "sniper", "bot", "insider", "whale", "wash_trader", "fresh", "retail"] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

export const NET_ACTIVITY = ["accumulating", "distributing", "holding", "exited"] as const;
export type NetActivity = (typeof NET_ACTIVITY)[number];

export const CONFIDENCE = ["low", "medium", "high"] as const;
export type Confidence = (typeof CONFIDENCE)[number];

export const SECTORS = ["meme", "ai", "defi", "gaming", "other"] as const;
export type Sector = (typeof SECTORS)[number];

/** Why a balance is not a holding (DESIGN: excluded from holder counts and concentration). */
export const HOLDER_TAGS = ["pool", "burn", "contract"] as const;
export type HolderTag = (typeof HOLDER_TAGS)[number];
