/**
 * The closed vocabularies of the product (DESIGN.md, "API decisions"): each list is declared
 * here once, and the database schema, the worker, the scoring engine, the read models
 * (lib/queries), the API schemas and the pages all read it from here.
 */

import type { FilterColumn } from "./token-filter";

export const PLANS = ["free", "pro", "api_tier"] as const;
export type Plan = (typeof PLANS)[number];

export const EVENT_TYPES = ["swap", "liquidity_add", "liquidity_remove", "transfer"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A swap's side, from the trader's point of view; liquidity events and transfers have none. */
export const DIRECTIONS = ["buy", "sell"] as const;
export type Direction = (typeof DIRECTIONS)[number];

/**
 * Event ids encode the chain position: block * EVENT_ID_BLOCK_FACTOR + the event's sequence in
 * its block (its log index; after the block's tombstones when a reorg rolled the block back).
 */
export const EVENT_ID_BLOCK_FACTOR = 100_000;

export const ALERT_STATUSES = ["active", "paused"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const ALERT_CHANNELS = ["email", "webhook"] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

export const DELIVERY_STATUSES = ["pending", "sent", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Why the status is not healthy: `worker_down` (no heartbeat from the indexer), `chain_unreachable`
 * (nothing could read the chain's head lately, so the lag is unknown), `lagging` (the indexed
 * block is further behind the head than the threshold), `indexing_failing` (indexing cycles keep
 * failing), `quarantine` (more quarantined entities than the threshold).
 */
export const STATUS_REASONS = ["worker_down", "chain_unreachable", "lagging", "indexing_failing", "quarantine"] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];

/** The reasons that mean the data may be older than it looks: nothing may call it live then. */
export const STALE_REASONS: readonly StatusReason[] = ["worker_down", "chain_unreachable", "lagging"];
export const isStale = (s: { reasons: readonly StatusReason[] }) => s.reasons.some((r) => STALE_REASONS.includes(r));

/** The token_metrics columns the token list can order by (a filter column, or another number). */
export type TokenSortColumn = FilterColumn | "trendingScore" | "volume24hUsd";

/**
 * The orders of GET /v1/tokens, each the column it sorts by and which way; ties go by address.
 * The list index (lib/queries/token-list-index.ts) keeps one order per entry.
 */
export const TOKEN_SORT_ORDERS = {
  trending: { column: "trendingScore", descending: true, description: "Recent volume and holder growth, damped by risk (lib/scoring/trending.ts)" },
  newest: { column: "createdAtMs", descending: true, description: "Newest first" },
  liquidity: { column: "liquidityUsd", descending: true, description: "Most liquidity first" },
  volume: { column: "volume24hUsd", descending: true, description: "Most 24 h volume first" },
  risk_asc: { column: "riskScore", descending: false, description: "Lowest risk score first" },
} as const satisfies Record<string, { column: TokenSortColumn; descending: boolean; description: string }>;
export type TokenSort = keyof typeof TOKEN_SORT_ORDERS;
export const TOKEN_SORTS = Object.keys(TOKEN_SORT_ORDERS) as [TokenSort, ...TokenSort[]];

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
