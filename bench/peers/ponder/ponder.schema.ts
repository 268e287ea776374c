import { index, onchainTable } from "ponder";

/**
 * The event rows our `events` table holds (db/schema/events.ts): swaps, liquidity changes and
 * transfers of launched tokens, each with its USD value, the same id (chain position) and the
 * same indexes, so both sides serve the same queries. A transfer found to be a leg of its
 * transaction's swap or liquidity change is kept with `leg` set; the event rows are the others.
 */
export const events = onchainTable(
  "events",
  (t) => ({
    id: t.int8({ mode: "number" }).primaryKey(),
    type: t.text().notNull(),
    walletAddress: t.hex().notNull(),
    toAddress: t.hex(),
    tokenAddress: t.hex().notNull(),
    poolAddress: t.hex(),
    tokenAmount: t.bigint().notNull(),
    amountUsd: t.doublePrecision().notNull(),
    direction: t.text(),
    blockNumber: t.int8({ mode: "number" }).notNull(),
    logIndex: t.integer().notNull(),
    txHash: t.hex().notNull(),
    timestamp: t.int8({ mode: "number" }).notNull(),
    leg: t.boolean().notNull().default(false),
  }),
  (t) => ({
    token: index().on(t.tokenAddress, t.id),
    wallet: index().on(t.walletAddress, t.id),
    to: index().on(t.toAddress, t.id),
    type: index().on(t.type, t.id),
    block: index().on(t.blockNumber),
  }),
);

/** Launched tokens, and their pools against a quote token (the ones that can price them). */
export const tokens = onchainTable("tokens", (t) => ({
  address: t.hex().primaryKey(),
  decimals: t.integer().notNull(),
  pools: t.hex().array().notNull(),
}));

/**
 * Pools that can carry a launched token's events or price WETH: their token balances (V2: the last
 * Sync; V3: folded from the pool's events) and, on V3, slot0's price and tick and the active liquidity.
 */
export const pools = onchainTable("pools", (t) => ({
  address: t.hex().primaryKey(),
  protocol: t.text().$type<"uniswap-v2" | "uniswap-v3">().notNull(),
  token0: t.hex().notNull(),
  token1: t.hex().notNull(),
  reserve0: t.bigint().notNull(),
  reserve1: t.bigint().notNull(),
  sqrtPriceX96: t.bigint().notNull(),
  tick: t.integer().notNull(),
  liquidity: t.bigint().notNull(),
}));

/** The one row (id 0) listing the WETH/stablecoin pools, which price WETH. */
export const wethPricing = onchainTable("weth_pricing", (t) => ({
  id: t.integer().primaryKey(),
  pools: t.hex().array().notNull(),
}));

/**
 * A pool's part in one transaction: whether it swapped or changed liquidity yet, and the transfer
 * events to or from it listed before it did. A token movement that is a leg of the pool's swap or
 * liquidity change is not a transfer event, wherever in the transaction it comes.
 */
export const poolTxs = onchainTable("pool_txs", (t) => ({
  id: t.text().primaryKey(),
  acted: t.boolean().notNull(),
  transferIds: t.int8({ mode: "number" }).array().notNull(),
}));
