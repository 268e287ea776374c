import { sql } from "drizzle-orm";
import { bigint, index, integer, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { address, blockNumber, createdAt, ts, uint256, usd } from "./columns";

/** One row per wallet that ever traded, provided liquidity or moved an indexed token. */
export const wallets = pgTable(
  "wallets",
  {
    address: address().primaryKey(),
    firstSeen: ts().notNull(),
    lastSeen: ts().notNull(),
    tradeCount: integer().notNull().default(0),
    /** The address that first sent this wallet native currency: the edge of funding clusters. */
    funder: address(),
    /** Funding cluster id (shared by wallets one funder created), null when alone. */
    clusterId: text(),
    isContract: integer().notNull().default(0),
    classification: text().notNull().default("fresh"),
    sectorPreference: text().notNull().default("other"),
    pnlConfidence: text().notNull().default("low"),
    portfolioValueUsd: usd().notNull().default(0),
    updatedAt: createdAt(),
  },
  (t) => [
    // With the address, a holder's cluster read (lib/queries/holders.ts: up to one past the managed size) is an
    // index-only scan that stops there; on cluster_id alone it was a bitmap of the whole cluster, a hub's thousands.
    index("wallets_cluster_idx").on(t.clusterId, t.address),
    index("wallets_funder_idx").on(t.funder),
    // GET /v1/search: any prefix of an address (LIKE '0xab%').
    index("wallets_address_prefix_idx").using("btree", t.address.op("text_pattern_ops")),
  ],
);

/** Average-cost position of a wallet in a token: the basis of portfolio and PnL. */
export const walletPositions = pgTable(
  "wallet_positions",
  {
    wallet: address().notNull(),
    tokenAddress: address().notNull(),
    quantity: uint256().notNull().default("0"),
    /** Average cost (USD) of the quantity held; tokens of unknown cost count at zero. */
    costBasisUsd: usd().notNull().default(0),
    realizedPnlUsd: usd().notNull().default(0),
    boughtUsd: usd().notNull().default(0),
    soldUsd: usd().notNull().default(0),
    /** Quantity received without a known cost (transfers in, airdrops). */
    unknownCostQuantity: uint256().notNull().default("0"),
    buyCount: integer().notNull().default(0),
    sellCount: integer().notNull().default(0),
    firstBuyBlock: blockNumber(),
    lastTradeBlock: blockNumber(),
    /** What the wallet has in the token's pools as liquidity, at cost: the sum of its liquidity_stakes' cost_usd. */
    liquidityCostUsd: usd().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.wallet, t.tokenAddress] }),
    index("wallet_positions_token_idx").on(t.tokenAddress),
    // A wallet's open positions with their quantities, read from the index alone (the positions
    // list ranks a wallet's open positions by value, and a busy wallet has thousands), and its
    // closed ones in the list's order (best realized PnL first): a page of a wallet with
    // thousands of closed positions reads only what it shows.
    index("wallet_positions_open_idx").on(t.wallet, t.tokenAddress, t.quantity).where(sql`${t.quantity} > 0`),
    index("wallet_positions_closed_idx")
      .on(t.wallet, t.realizedPnlUsd.desc().nullsFirst(), t.tokenAddress)
      .where(sql`${t.quantity} <= 0`),
  ],
);

/**
 * A wallet's liquidity in one pool of an indexed token, folded from liquidity_changes and the
 * token legs of its adds (worker/derive/positions.ts): the liquidity it added and has not removed,
 * and what that liquidity cost (its tokens' average cost and the quote it paid, in USD), released
 * in proportion as it is removed. Recomputed per token after a reorg, as positions are.
 */
export const liquidityStakes = pgTable(
  "liquidity_stakes",
  {
    wallet: address().notNull(),
    poolAddress: address().notNull(),
    tokenAddress: address().notNull(),
    /** V2: LP shares; V3: position liquidity (the units of liquidity_changes). */
    units: uint256().notNull().default("0"),
    costUsd: usd().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.wallet, t.poolAddress] }), index("liquidity_stakes_token_idx").on(t.tokenAddress)],
);

/**
 * A wallet's number of positions and of open ones (quantity above zero), and the price-free part of
 * its PnL, kept by statement triggers on wallet_positions (db/functions/position-counts.sql): the
 * exact total of a positions list, and a profile's PnL, are one probe, not a pass over a busy
 * wallet's thousands.
 */
export const walletPositionCounts = pgTable("wallet_position_counts", {
  wallet: address().primaryKey(),
  total: integer().notNull(),
  open: integer().notNull(),
  /**
   * The transaction that last changed the wallet's positions or their quantities: while it is
   * the same, a reader may keep the open positions it read (lib/queries/positions.ts).
   */
  changedXact: bigint({ mode: "number" }).notNull().default(0),
  /**
   * Σ over the wallet's positions of realized PnL less cost basis (each float8 as numeric, so the
   * sum is exact and the same whatever order the rows were written in): the wallet's PnL with
   * every holding valued at zero. A read adds its holdings' values (lib/queries/wallets.ts).
   */
  realizedLessCostUsd: numeric().notNull().default("0"),
});

/**
 * The first payment each address received: native currency (from block transactions; asset null)
 * or, for a wallet without one, its first quote-token transfer from an account without code
 * (asset: the token; value in its units). The raw fact behind wallets.funder. Reorg rollbacks
 * delete by block; later payments refill it.
 */
export const walletFunding = pgTable(
  "wallet_funding",
  {
    wallet: address().primaryKey(),
    funder: address().notNull(),
    value: uint256().notNull(),
    asset: address(),
    blockNumber: blockNumber().notNull(),
    txHash: text().notNull(),
  },
  (t) => [index("wallet_funding_funder_idx").on(t.funder), index("wallet_funding_block_idx").on(t.blockNumber)],
);

/**
 * The first quote-token transfer (WETH, a stablecoin) each address received from an account
 * without code, recorded range by range as the indexer passes it. A wallet first seen later reads
 * its quote-token funder here (worker/derive/funding.ts) instead of searching the chain back to
 * the start block for every range's new wallets.
 */
export const firstQuotePayments = pgTable(
  "first_quote_payments",
  {
    recipient: address().primaryKey(),
    sender: address().notNull(),
    asset: address().notNull(),
    value: uint256().notNull(),
    blockNumber: blockNumber().notNull(),
    logIndex: integer().notNull(),
    txHash: text().notNull(),
  },
  (t) => [index("first_quote_payments_block_idx").on(t.blockNumber)],
);
