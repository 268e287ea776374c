import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { address, blockNumber, uint256, usd } from "./columns";

/** Uniswap-V2-style pairs discovered from factory PairCreated events. */
export const pools = pgTable(
  "pools",
  {
    address: address().primaryKey(),
    factory: address().notNull(),
    dex: text().notNull(),
    token0: address().notNull(),
    token1: address().notNull(),
    reserve0: uint256().notNull().default("0"),
    reserve1: uint256().notNull().default("0"),
    lpTotalSupply: uint256().notNull().default("0"),
    liquidityUsd: usd().notNull().default(0),
    createdBlock: blockNumber().notNull(),
    reserveBlock: blockNumber().notNull().default(0),
  },
  (t) => [index("pools_token0_idx").on(t.token0), index("pools_token1_idx").on(t.token1)],
);

/** Reserves after each Sync, the raw fact behind liquidity history and rug detection. */
export const poolReserves = pgTable(
  "pool_reserves",
  {
    poolAddress: address().notNull(),
    blockNumber: blockNumber().notNull(),
    logIndex: blockNumber().notNull(),
    reserve0: uint256().notNull(),
    reserve1: uint256().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.poolAddress, t.blockNumber, t.logIndex] }),
    // Reorg rollbacks delete by block.
    index("pool_reserves_block_idx").on(t.blockNumber),
  ],
);
