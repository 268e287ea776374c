/**
 * The closed vocabularies of the product (docs/architecture.md, "Vocabularies"): each list is declared
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

/**
 * What an alert watches (worker/alerts/README.md): tokens matching a filter (`token`, the spec's
 * alerts), a wallet's trades, receipts and launches, a token's price, smart-money buys.
 */
export const ALERT_KINDS = ["token", "wallet", "price", "smart_money"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

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
export const STATUS_REASONS = [
  "worker_down",
  "chain_unreachable",
  "lagging",
  "indexing_failing",
  "quarantine",
] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];

/** The reasons that mean the data may be older than it looks: nothing may call it live then. */
export const STALE_REASONS: readonly StatusReason[] = ["worker_down", "chain_unreachable", "lagging"];
export const isStale = (s: { reasons: readonly StatusReason[] }) => s.reasons.some((r) => STALE_REASONS.includes(r));

/**
 * The token_metrics columns the token list can order by (a filter column, or another number;
 * txns24h is buys plus sells).
 */
export type TokenSortColumn =
  | FilterColumn
  | "trendingScore"
  | "volume24hUsd"
  | "volume1hUsd"
  | "priceUsd"
  | "priceChange5mPct"
  | "priceChange1hPct"
  | "priceChange24hPct"
  | "fdvUsd"
  | "holderCount"
  | "txns24h"
  | "makers24h";

/** A sort's short name (the dashboard's menus) and its description, by default the name and "first". */
const order = (column: TokenSortColumn, descending: boolean, label: string, description = `${label} first`) =>
  ({ column, descending, label, description }) as const;
const most = (column: TokenSortColumn, what: string) => order(column, true, `Most ${what}`);
const least = (column: TokenSortColumn, what: string) => order(column, false, `Least ${what}`);
const highest = (column: TokenSortColumn, what: string) => order(column, true, `Highest ${what}`);
const lowest = (column: TokenSortColumn, what: string) => order(column, false, `Lowest ${what}`);

/**
 * The orders of GET /v1/tokens, each the column it sorts by and which way; every column both
 * ways (the bare name for the usual way, `_asc` or the opposite word for the other). Ties go by
 * address; a token without a value (a price change of a token that never traded) comes last
 * either way. The list index (lib/queries/token-list-index.ts) keeps one order per entry.
 */
export const TOKEN_SORT_ORDERS = {
  trending: order("trendingScore", true, "Trending", "Recent volume and holder growth, damped by risk"),
  newest: order("createdAtMs", true, "Newest"),
  oldest: order("createdAtMs", false, "Oldest"),
  liquidity: most("liquidityUsd", "liquidity"),
  liquidity_asc: least("liquidityUsd", "liquidity"),
  volume: most("volume24hUsd", "24 h volume"),
  volume_asc: least("volume24hUsd", "24 h volume"),
  volume_1h: most("volume1hUsd", "1 h volume"),
  volume_1h_asc: least("volume1hUsd", "1 h volume"),
  market_cap: highest("marketCapUsd", "market cap"),
  market_cap_asc: lowest("marketCapUsd", "market cap"),
  fdv: highest("fdvUsd", "FDV"),
  fdv_asc: lowest("fdvUsd", "FDV"),
  price: highest("priceUsd", "price"),
  price_asc: lowest("priceUsd", "price"),
  price_change_5m: highest("priceChange5mPct", "5 min price change"),
  price_change_5m_asc: lowest("priceChange5mPct", "5 min price change"),
  price_change_1h: highest("priceChange1hPct", "1 h price change"),
  price_change_1h_asc: lowest("priceChange1hPct", "1 h price change"),
  price_change_24h: highest("priceChange24hPct", "24 h price change"),
  price_change_24h_asc: lowest("priceChange24hPct", "24 h price change"),
  holders: most("holderCount", "holders"),
  holders_asc: least("holderCount", "holders"),
  txns_24h: most("txns24h", "24 h swaps"),
  txns_24h_asc: least("txns24h", "24 h swaps"),
  makers_24h: most("makers24h", "24 h traders"),
  makers_24h_asc: least("makers24h", "24 h traders"),
  risk_asc: lowest("riskScore", "risk score"),
  risk_desc: highest("riskScore", "risk score"),
} as const satisfies Record<
  string,
  { column: TokenSortColumn; descending: boolean; label: string; description: string }
>;
export type TokenSort = keyof typeof TOKEN_SORT_ORDERS;
export const TOKEN_SORTS = Object.keys(TOKEN_SORT_ORDERS) as [TokenSort, ...TokenSort[]];

/**
 * A wallet's positions (GET /v1/wallets/{address}/positions): open, it holds the token; closed, it held some and holds
 * none now.
 */
export const POSITION_STATUSES = ["all", "open", "closed"] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];

/** How the indexer found a token (tokens.origin): its launchpad's launch event, or a factory's new pool. */
export const TOKEN_ORIGINS = ["launchpad", "factory"] as const;
export type TokenOrigin = (typeof TOKEN_ORIGINS)[number];

/** Why a token's creator is unknown: found through a factory's pool, or its launchpad's event names none. */
export const CREATOR_UNKNOWN_REASONS = ["found_through_pool", "launch_event_names_none"] as const;

/** What became of a wallet's launch (lib/queries/launches.ts has the rule, docs/methodology.md the words). */
export const LAUNCH_OUTCOMES = ["trading", "liquidity_pulled", "abandoned"] as const;
export type LaunchOutcome = (typeof LAUNCH_OUTCOMES)[number];
/** Each outcome in words, for the API's descriptions and the pages. */
export const LAUNCH_OUTCOME_WORDS: Record<LaunchOutcome, string> = {
  trading: "still trading: swapped in the 24 h up to the indexed head, or younger than that, with liquidity",
  liquidity_pulled: "its liquidity_pulled risk flag is raised",
  abandoned: "not pulled, and no liquidity left, or no swap in the 24 h up to the indexed head while older than that",
};

/** Whether a token's creator sold what it holds of it (lib/queries/creator.ts has the rule). */
export const CREATOR_SALES = ["not_sold", "sold_some", "sold_all", "bought_more"] as const;
export type CreatorSales = (typeof CREATOR_SALES)[number];

/** What GET /v1/search looks through. */
export const SEARCH_TYPES = ["all", "token", "wallet"] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/**
 * Candle intervals of GET /v1/tokens/{address}/ohlcv and their length in seconds; candles start at multiples of it
 * since the Unix epoch (UTC).
 */
export const OHLCV_INTERVALS = { "1m": 60, "5m": 300, "15m": 900, "1h": 3_600, "4h": 14_400, "1d": 86_400 } as const;
export type OhlcvInterval = keyof typeof OHLCV_INTERVALS;

export const RISK_FLAGS = [
  "wash_trading",
  "liquidity_pulled",
  "concentrated_ownership",
  "sybil_cluster",
  "smart_money_exiting",
] as const;
export type RiskFlag = (typeof RISK_FLAGS)[number];

/** The breakdown of risk_score (RISK_WEIGHTS' keys, in their order). */
export const RISK_DIMENSIONS = [
  "holder_concentration_score",
  "liquidity_stability_score",
  "wash_trade_score",
  "smart_money_flow_score",
] as const;
export type RiskDimension = (typeof RISK_DIMENSIONS)[number];

/** The breakdown of reputation_score (REPUTATION_WEIGHTS' keys, in their order). */
export const REPUTATION_DIMENSIONS = [
  "win_rate",
  "entry_timing_score",
  "consistency_score",
  "risk_drawdown_score",
] as const;
export type ReputationDimension = (typeof REPUTATION_DIMENSIONS)[number];

/**
 * Why a token's risk_score is not its weighted breakdown: a raised flag's floor (the flag's
 * name), a raised combination of flags' floor, a severe dimension's floor, a new token's floor.
 * Each is a min_score adjustment.
 */
export const TOKEN_ADJUSTMENT_REASONS = [
  ...RISK_FLAGS,
  "concentrated_wash_trading",
  "severe_holder_concentration",
  "severe_liquidity_instability",
  "new_token",
] as const;
export type TokenAdjustmentReason = (typeof TOKEN_ADJUSTMENT_REASONS)[number];

/**
 * Why a wallet's reputation_score is not its weighted breakdown: the neutral floor of a wallet with
 * nothing to judge (no_record, a min_score adjustment), and caps (max_score adjustments).
 */
export const WALLET_ADJUSTMENT_REASONS = [
  "no_record",
  "low_confidence",
  "pulled_own_launch_liquidity",
  "insider_dump",
] as const;
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

export const CLASSIFICATIONS = [
  "smart_money",
  "sniper",
  "bot",
  "insider",
  "whale",
  "wash_trader",
  "fresh",
  "retail",
] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

export const NET_ACTIVITY = ["accumulating", "distributing", "holding", "exited"] as const;
export type NetActivity = (typeof NET_ACTIVITY)[number];

export const CONFIDENCE = ["low", "medium", "high"] as const;
export type Confidence = (typeof CONFIDENCE)[number];

export const SECTORS = ["meme", "ai", "defi", "gaming", "other"] as const;
export type Sector = (typeof SECTORS)[number];

/** Why a balance is not a holding (excluded from holder counts and concentration). */
export const HOLDER_TAGS = ["pool", "burn", "contract"] as const;
export type HolderTag = (typeof HOLDER_TAGS)[number];
