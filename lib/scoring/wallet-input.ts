/**
 * What the worker gives the wallet reputation scorer: one row per token position
 * (wallet_positions with the token's launch and flags), the wallet's recent trades (events),
 * and its links (wallets.funder, cluster_id, the creators of tokens). Times are Unix seconds.
 */
import type { Trade } from "./token-input";

export type WalletPosition = {
  token: string;
  boughtUsd: number;
  soldUsd: number;
  realizedPnlUsd: number;
  /** Value of the quantity held minus its cost basis; 0 when closed. */
  unrealizedPnlUsd: number;
  /** Quantity is (close to) zero after selling. */
  closed: boolean;
  /** When the closing sell happened (wallet_positions.last_trade_block's time); null if open. */
  closedAt: number | null;
  /** firstBuyBlock − the token's launch block; null when the wallet never bought it. */
  blocksAfterLaunch: number | null;
  /** Seconds from the token's launch to the first buy; null when never bought. */
  secondsAfterLaunch: number | null;
  /** Share of the acquired quantity with a known cost (1 − unknown_cost_quantity / acquired). */
  knownCostShare: number;
  /** The token carries the liquidity_pulled flag. */
  tokenRugged: boolean;
  /** The token's creator is this wallet or linked to it (funded it, was funded by it, shares a managed cluster). */
  insider: boolean;
  /** Of the quantity the wallet got (held now + sold), the share it sold. */
  soldShare: number;
};

/** A swap of the wallet (events, type = 'swap', wallet_address = it). */
export type WalletTrade = Trade & { token: string };

export type WalletReputationInput = {
  address: string;
  now: number;
  /** wallets.first_seen. */
  firstSeen: number;
  /** wallets.trade_count (all time). */
  tradeCount: number;
  positions: WalletPosition[];
  /** The wallet's swaps of the last 30 days (at most the latest few thousand): bot and wash tests. */
  trades: WalletTrade[];
  /** It created a token, was funded by a creator, funded one, or shares a cluster with one. */
  linkedToCreator: boolean;
  /** It is named in the wash_trading evidence of some token (a ring member without own matches). */
  inWashEvidence: boolean;
  /** Tokens it created whose liquidity_pulled evidence names it. */
  pulledOwnLaunchLiquidity: string[];
  portfolioValueUsd: number;
};
