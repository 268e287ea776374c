/**
 * What the worker gives the token risk scorer. Times are Unix seconds, blocks are block
 * numbers, token amounts are in any one unit per token (raw or decimal-adjusted: only ratios
 * are taken), USD values are numbers. Addresses are lowercase.
 */
import type { HolderTag } from "@/lib/domain/vocab";

export type TokenFacts = {
  address: string;
  /** tokens.created_block: the launch. */
  launchBlock: number;
  /** tokens.created_at, Unix seconds. */
  launchedAt: number;
  /** tokens.total_supply in the same unit as balances; burned balances are subtracted here. */
  totalSupply: number;
};

/** A balance from `balances`, joined with `wallets` (cluster_id, funder). */
export type Holder = {
  address: string;
  balance: number;
  /** pool: a pair contract (pools); burn: zero/dead address; contract: the token or any contract. */
  tags: HolderTag[];
  clusterId: string | null;
  funder: string | null;
};

/**
 * A funding cluster (wallets.cluster_id) with how many wallets share it across the chain, counted
 * up to one past CLUSTERS.maxManagedSize: past it, a cluster is a hub whatever its size.
 */
export type ClusterFacts = { id: string; size: number };

/** Sum of the USD liquidity of all of the token's pools after a block (from pool_reserves). */
export type LiquidityPoint = { block: number; timestamp: number; liquidityUsd: number };

/** A liquidity_add or liquidity_remove event; the provider is the transaction's sender. */
export type LiquidityChange = {
  kind: "add" | "remove";
  provider: string;
  pool: string;
  /** Share of the pool this change added or removed: token amount / token reserve just before. */
  shareOfPool: number;
  amountUsd: number;
  block: number;
  timestamp: number;
  txHash: string;
};

/** A swap from `events` (type = 'swap') in the trader's direction. */
export type Trade = {
  direction: "buy" | "sell";
  tokenAmount: number;
  amountUsd: number;
  block: number;
  timestamp: number;
  txHash: string;
};

/** A swap of this token with its trader's funding links (wallets.funder, wallets.cluster_id). */
export type Swap = Trade & { wallet: string; funder: string | null; clusterId: string | null };

/** A wallet classified smart_money that held this token, with its balance now and at its peak. */
export type SmartMoneyHolding = { wallet: string; balance: number; peakBalance: number };

export type TokenRiskInput = {
  token: TokenFacts;
  /** Time of the scoring (the indexed head), Unix seconds. */
  now: number;
  /** token_metrics.liquidity_usd and market_cap_usd. */
  liquidityUsd: number;
  marketCapUsd: number;
  /** Every holder with a balance, or at least the largest 1,000 and all members of their clusters. */
  holders: Holder[];
  /** Every cluster id that appears on a holder or a swap. */
  clusters: ClusterFacts[];
  /** Since launch (downsampled is fine, keep the extremes). */
  liquidityHistory: LiquidityPoint[];
  /** Since launch, every pool of the token. */
  liquidityChanges: LiquidityChange[];
  /** Share of LP tokens burned or held by lockers; null when unknown (the term is left out). */
  lpLockedShare: number | null;
  /** Swaps of the last WINDOWS.swapLookbackSeconds. */
  swaps: Swap[];
  /** Buys in blocks launchBlock .. launchBlock + WINDOWS.earlyMoverBlocks, however old. */
  earlyBuys: Swap[];
  smartMoney: SmartMoneyHolding[];
};
