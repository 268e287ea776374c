/**
 * Every weight, threshold and window of the scoring engine, in one place. docs/methodology.md
 * explains each one and where it comes from; change both together and bump METHOD_VERSION,
 * which is stored beside every score (and hashed into summaries, so they are rewritten).
 */

import type {
  ReputationDimension,
  RiskDimension,
  RiskFlag,
  RiskLevel,
  TokenAdjustmentReason,
  WalletAdjustmentReason,
} from "@/lib/domain/vocab";
import type { RampSpec } from "./ramp";

export const METHOD_VERSION = "2026-11.7";

const HOUR = 3600;
const DAY = 24 * HOUR;

/** How far back each rule looks. The worker passes at least this much data. */
export const WINDOWS = {
  /** Swaps considered for wash trading, smart-money flow and net activity. */
  swapLookbackSeconds: 7 * DAY,
  /** "Recent" for net_activity. */
  netActivitySeconds: DAY,
  /** Buys in launchBlock .. launchBlock + earlyMoverBlocks are early moves (and launch sybils). */
  earlyMoverBlocks: 20,
} as const;

// ---- token risk ---------------------------------------------------------------------------

/**
 * risk_score = Σ wᵢ·dimensionᵢ / Σ wᵢ over the dimensions with data (weights sum to 1), then
 * raised to the floors that apply (adjustments, composite.ts).
 */
export const RISK_WEIGHTS = {
  holder_concentration_score: 0.3,
  liquidity_stability_score: 0.3,
  wash_trade_score: 0.2,
  smart_money_flow_score: 0.2,
} as const satisfies Record<RiskDimension, number>;

/** A raised flag puts the risk score at least here (adjustment reason: the flag's name). */
export const RISK_FLOORS: Record<RiskFlag, number> = {
  liquidity_pulled: 85,
  sybil_cluster: 50,
  wash_trading: 35,
  concentrated_ownership: 35,
  smart_money_exiting: 35,
};

/**
 * Flags worse together than apart: with all of `flags` raised the risk score is at least `floor`
 * (adjustment reason: the key, one of TOKEN_ADJUSTMENT_REASONS, which tsc checks). Faked volume
 * alone misleads about demand; in a token a few own it is the pump before their dump.
 */
export const COMBINED_FLAG_FLOORS = {
  concentrated_wash_trading: { flags: ["wash_trading", "concentrated_ownership"], floor: 50 },
} as const satisfies Partial<Record<TokenAdjustmentReason, { flags: readonly RiskFlag[]; floor: number }>>;

/**
 * A token this young is at least "medium": a day is when most rug pulls happen (Cernera et al.:
 * about 60% of tokens are active for less than a day; the "1-day rug pull").
 */
export const NEW_TOKEN = { maxAgeHours: 24, floor: 25 } as const;

/**
 * A token's confidence: the share of RISK_WEIGHTS whose dimensions have data. All of it is
 * high; most of it (one light dimension unknown, such as smart-money flow with no smart money
 * in the token) is medium; less is low.
 */
export const TOKEN_CONFIDENCE = { high: 1, medium: 0.7 } as const;

/**
 * A dimension this high is a way to lose everything by itself (a few owners can dump the supply,
 * the pool's owner is taking it out): the token is at least "high", whatever the average says.
 * Liquidity is judged on what happened to the pool, without unlocked_lp_share (lib/scoring/liquidity.ts),
 * and not at all once `lockedLpShare` of its LP is locked: its providers cannot take it out, so
 * what happened to it is its traders' doing, which the weighted score carries.
 */
export const SEVERE_DIMENSION = {
  from: { holder_concentration_score: 50, liquidity_stability_score: 50 },
  floor: 50,
  lockedLpShare: 0.99,
} as const;

/** risk_level: the first level whose upper bound the score is below; else "critical". */
export const RISK_LEVEL_UPPER_BOUNDS: [RiskLevel, number][] = [
  ["low", 25],
  ["medium", 50],
  ["high", 75],
];

/** Funding clusters: when wallets sharing a funder count as one entity. */
export const CLUSTERS = {
  /** A funder with more wallets than this is a hub (exchange, faucet, bridge), not one owner. */
  maxManagedSize: 50,
  /** Share of the cluster's wallets that touch this token; unrelated customers of a hub don't. */
  minCohesion: 0.5,
  minWallets: 2,
} as const;

export const HOLDER_CONCENTRATION_SCORE = {
  top10_share: { weight: 0.5, from: 0.2, to: 0.8 },
  hhi: { weight: 0.3, from: 0.02, to: 0.25 },
  top1_share: { weight: 0.2, from: 0.05, to: 0.5 },
} as const satisfies RampSpec;

export const CONCENTRATED_OWNERSHIP_FLAG = { top10_share: 0.5, top1_share: 0.15 } as const;

export const LIQUIDITY_STABILITY_SCORE = {
  drawdown: { weight: 0.45, from: 0.2, to: 0.9 },
  largest_removal_share: { weight: 0.25, from: 0.3, to: 0.9 },
  unlocked_lp_share: { weight: 0.2, from: 0, to: 1 },
  /** Falling ramp: liquidity under 2% of market cap is fully fragile, above 10% not at all. */
  liquidity_to_mcap: { weight: 0.1, from: 0.1, to: 0.02 },
} as const satisfies RampSpec;

/** A removal followed by re-adding liquidity by the same provider is a migration, not a pull. */
export const LP_MIGRATION = { readdWithinBlocks: 100, minReaddShare: 0.8 } as const;

export const LIQUIDITY_PULLED_FLAG = {
  /** One provider's removals (compounded, migrations excluded) took this share of the pool. */
  provider_removed_share: 0.7,
  /** Or liquidity fell this far within fastDrawdownSeconds and has not come back… */
  fast_drawdown: 0.9,
  fastDrawdownSeconds: DAY,
  /** …with the pool's providers (and their entities) behind this share of the selling in the fall. */
  provider_sell_share: 0.5,
} as const;

export const WASH_MATCHING = {
  /** A buy and a sell of the same entity this close in time form a round trip (~25 L1 blocks)… */
  windowSeconds: 300,
  /** …when their token amounts differ by at most this share (Chainalysis: <1%). */
  maxAmountDiff: 0.01,
  /** An entity is a wash trader with this many round trips… */
  minRoundTrips: 3,
  /** …making up at least this share of its own volume (a market maker's matches are incidental). */
  minMatchedShare: 0.5,
} as const;

export const WASH_TRADE_SCORE = {
  wash_share: { weight: 0.8, from: 0.05, to: 0.5 },
  top_cluster_volume_share: { weight: 0.2, from: 0.3, to: 0.8 },
} as const satisfies RampSpec;

export const WASH_TRADING_FLAG = { wash_share: 0.25 } as const;

export const SYBIL_CLUSTER_FLAG = {
  /** Wallets of one funder buying in the same early block (a bundled launch buy)… */
  same_block_wallets: 4,
  /** …or wallets of one managed funding cluster buying the token… */
  cluster_wallets: 5,
  /** …holding, or having bought at launch, at least this share of supply. */
  supply_share: 0.1,
} as const;

export const SMART_MONEY = {
  /** A smart-money wallet is exiting when it sold this share of its peak balance in the window. */
  exitSoldShareOfPeak: 0.5,
} as const;

export const SMART_MONEY_FLOW_SCORE = {
  exit_share: { weight: 0.6, from: 0.1, to: 0.6 },
  /** (sold − bought) / (sold + bought) of smart money in USD: −1 all buying, +1 all selling. */
  flow_direction: { weight: 0.4, from: -1, to: 1 },
} as const satisfies RampSpec;

export const SMART_MONEY_EXITING_FLAG = { exiting_wallets: 2, exit_share: 0.3, net_flow_usd: 0 } as const;

/** net_activity: change over the window relative to the position, and what counts as gone. */
export const NET_ACTIVITY_RULE = { minChange: 0.1, exitedBelowShare: 0.01 } as const;

export const TOP_HOLDERS_FOR_REPUTATION = 10;

/** Evidence lists are capped so a flag on a 10,000-wallet ring stays a readable record. */
export const MAX_EVIDENCE_ITEMS = 25;

// ---- wallet reputation --------------------------------------------------------------------

/** reputation_score = Σ wᵢ·dimensionᵢ / Σ wᵢ over the dimensions with data, win_rate taken ×100. */
export const REPUTATION_WEIGHTS = {
  win_rate: 0.35,
  entry_timing_score: 0.25,
  consistency_score: 0.2,
  risk_drawdown_score: 0.2,
} as const satisfies Record<ReputationDimension, number>;

/** Beta(2,2) prior: (wins + 2) / (closed + 4), so a short record is pulled toward one half. */
export const WIN_RATE_PRIOR = { hits: 2, n: 4 } as const;

/**
 * Closed positions a wallet needs before its win rate (and its PnL's confidence, in the
 * dashboard) is shown: five put the shrunk rate's spread at about ±0.15, enough to tell a
 * record of wins from a coin flip. Medium confidence asks for the same five.
 */
export const MIN_CLOSED_POSITIONS = 5;

export const ENTRY_TIMING = {
  /** Entries this close to launch are sniping (Mobula: 0–3 blocks), not judged as timing skill. */
  sniperMaxBlocks: 3,
  fullCreditWithinSeconds: 60,
  noCreditAfterSeconds: 7 * DAY,
} as const;

export const CONSISTENCY = {
  /** Weeks, counted back from the head. */
  periodSeconds: 7 * DAY,
  /** Weeks with a closed trade needed before consistency is measured. */
  minPeriods: 2,
  /** (positive periods + 1) / (periods + 2). */
  prior: { hits: 1, n: 2 },
  /** Up to this share of the score is lost when one win makes most of the gross profit. */
  oneHitPenalty: 0.5,
  oneHitFrom: 0.5,
  oneHitTo: 0.9,
} as const;

export const RISK_DRAWDOWN_SCORE = {
  /** Σ losses / Σ capital deployed. */
  loss_severity: { weight: 0.6, from: 0.05, to: 0.5 },
  /** Share of positions lost in tokens whose liquidity was pulled (GMGN: rug ratio > 0.3 is risky). */
  rug_ratio: { weight: 0.4, from: 0.1, to: 0.5 },
} as const satisfies RampSpec;

/**
 * Confidence: every minimum of a level must be met. Medium rests on the number of closed trades
 * alone (a busy day is as much evidence as a quiet month); high also needs a month of history,
 * consistency being measured per week.
 */
export const CONFIDENCE_RULE = {
  high: { closedPositions: 20, historyDays: 30, knownCostShare: 0.8 },
  medium: { closedPositions: MIN_CLOSED_POSITIONS, historyDays: 0, knownCostShare: 0.5 },
} as const;

/**
 * A wallet with nothing to judge (no dimension has data: it holds and held no position) is at
 * least here (adjustment with min_score, reason = the key): the middle of the scale, where the
 * method's own priors put a record of no trades (the shrunk win rate and consistency of nothing
 * are both one half). No history is not the worst record; the caps below still win over it.
 */
export const REPUTATION_FLOORS = { no_record: 50 } as const satisfies Partial<Record<WalletAdjustmentReason, number>>;

/**
 * What a record cannot outweigh: reputation_score is held at most here (adjustments with
 * max_score, reason = the key). An unproven wallet cannot look excellent; a wallet that sold
 * its allocation of a launch it is tied to is not trustworthy whatever its profits; one that
 * pulled the liquidity of its own launch took everyone's money and ranks below every honest loser.
 */
export const REPUTATION_CAPS = {
  low_confidence: 60,
  pulled_own_launch_liquidity: 10,
  insider_dump: 30,
} as const satisfies Record<Exclude<WalletAdjustmentReason, keyof typeof REPUTATION_FLOORS>, number>;

/** An insider dumped a launch when it sold at least this share of what it got of it. */
export const INSIDER_DUMP = { minSoldShare: 0.5 } as const;

export const CLASSIFICATION_RULE = {
  botTradesPerMinute: 10,
  sniperShareOfPositions: 0.5,
  smartMoneyMinReputation: 70,
  whaleMinPortfolioUsd: 100_000,
  /** One buy this large (the "whale trade" of trade feeds). */
  whaleMinBuyUsd: 10_000,
  freshMaxAgeHours: 24,
  freshMaxTrades: 10,
} as const;

// ---- sector -------------------------------------------------------------------------------

/** A keyword in the name or symbol counts twice a keyword in the launchpad's name. */
export const SECTOR_MATCH_WEIGHTS = { nameOrSymbol: 2, launchpad: 1 } as const;

// ---- summaries ----------------------------------------------------------------------------

/** What counts as a material change of the data behind a summary. */
export const SUMMARY_BUCKETS = {
  /** Log-scale buckets per decade for USD values and counts (10 ⇒ ~26% steps). */
  perDecade: 10,
  /** Scores and percentages are bucketed in steps of this many points. */
  points: 5,
} as const;

export const LLM_SUMMARY = {
  minChars: 80,
  maxChars: 1200,
  /** A number in the model's text must be within this relative distance of a number in the data. */
  numberTolerance: 0.06,
  /** Numbers of ordinary phrasing ("top 10", "24 hours") that need no source in the data. */
  everydayNumbers: [1, 10, 24, 100],
  maxTokens: 350,
} as const;
