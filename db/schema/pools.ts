import { doublePrecision, index, integer, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { address, blockNumber, uint256, usd } from "./columns";

/**
 * Pools discovered from factory events: Uniswap V2 pairs (PairCreated) and V3 pools (PoolCreated).
 * reserve0/1 are the pool's token balances: a V2 pair's Sync, a V3 pool's balances folded from its
 * Mint, Swap, Collect and Flash events. A V3 pool also carries its price state (slot0) and active liquidity.
 */
export const pools = pgTable(
  "pools",
  {
    address: address().primaryKey(),
    factory: address().notNull(),
    dex: text().notNull(),
    /** uniswap-v2 or uniswap-v3. */
    protocol: text().notNull().default("uniswap-v2"),
    /** V3: fee in hundredths of a basis point, and tick spacing. */
    fee: integer(),
    tickSpacing: integer(),
    token0: address().notNull(),
    token1: address().notNull(),
    reserve0: uint256().notNull().default("0"),
    reserve1: uint256().notNull().default("0"),
    sqrtPriceX96: numeric("sqrt_price_x96", { precision: 78, scale: 0 }),
    tick: integer(),
    liquidity: uint256(),
    lpTotalSupply: uint256().notNull().default("0"),
    liquidityUsd: usd().notNull().default(0),
    /**
     * USD per unit of the pool's token (the side that is not a quote token) at its marginal price; null without
     * exactly one quote side.
     */
    priceUsd: usd(),
    /**
     * Swap volume and swaps in the pool in the 24 h up to the worker's last refresh of its token (token_metrics'
     * window).
     */
    volume24hUsd: doublePrecision("volume_24h_usd").notNull().default(0),
    swaps24h: integer("swaps_24h").notNull().default(0),
    createdBlock: blockNumber().notNull(),
    reserveBlock: blockNumber().notNull().default(0),
  },
  (t) => [index("pools_token0_idx").on(t.token0), index("pools_token1_idx").on(t.token1)],
);

/**
 * Reserves after each Sync (V2) or balance-moving V3 event (with the V3 price state then), the raw
 * fact behind liquidity history and rug detection, and what a reorg rollback restores pools from.
 */
export const poolReserves = pgTable(
  "pool_reserves",
  {
    poolAddress: address().notNull(),
    blockNumber: blockNumber().notNull(),
    logIndex: blockNumber().notNull(),
    reserve0: uint256().notNull(),
    reserve1: uint256().notNull(),
    sqrtPriceX96: numeric("sqrt_price_x96", { precision: 78, scale: 0 }),
    tick: integer(),
    liquidity: uint256(),
  },
  (t) => [
    primaryKey({ columns: [t.poolAddress, t.blockNumber, t.logIndex] }),
    // Reorg rollbacks delete by block.
    index("pool_reserves_block_idx").on(t.blockNumber),
  ],
);

/**
 * Uniswap V3 positions (position-manager NFTs) in tracked pools, folded from position_events:
 * the current owner, tick range and liquidity.
 */
export const lpPositions = pgTable(
  "lp_positions",
  {
    manager: address().notNull(),
    tokenId: uint256().notNull(),
    poolAddress: address().notNull(),
    owner: address().notNull(),
    tickLower: integer().notNull(),
    tickUpper: integer().notNull(),
    liquidity: uint256().notNull(),
    createdBlock: blockNumber().notNull(),
    updatedBlock: blockNumber().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.manager, t.tokenId] }),
    index("lp_positions_pool_idx").on(t.poolAddress),
    index("lp_positions_owner_idx").on(t.owner),
  ],
);

/**
 * The raw facts of V3 positions: IncreaseLiquidity, DecreaseLiquidity, Collect and NFT Transfer
 * of positions in tracked pools (liquidity signed; `owner` the new owner of a transfer).
 */
export const positionEvents = pgTable(
  "position_events",
  {
    blockNumber: blockNumber().notNull(),
    logIndex: integer().notNull(),
    manager: address().notNull(),
    tokenId: uint256().notNull(),
    poolAddress: address().notNull(),
    kind: text().notNull(),
    liquidityDelta: uint256().notNull().default("0"),
    amount0: uint256().notNull().default("0"),
    amount1: uint256().notNull().default("0"),
    owner: address(),
    tickLower: integer(),
    tickUpper: integer(),
    txHash: text().notNull(),
    txFrom: address(),
  },
  (t) => [
    primaryKey({ columns: [t.blockNumber, t.logIndex] }),
    index("position_events_token_idx").on(t.manager, t.tokenId),
    index("position_events_pool_idx").on(t.poolAddress),
  ],
);

/**
 * Liquidity changes in pools of indexed tokens (transform.ts LiquidityRow): a V2 Mint or Burn, a
 * V3 Mint, Burn or Collect, booked to the transaction's sender, with the liquidity it added or
 * removed and the USD of the quote side it paid in or out at that log. The raw facts of the
 * wallets' liquidity stakes (liquidity_stakes); reorg rollbacks delete by block.
 */
export const liquidityChanges = pgTable(
  "liquidity_changes",
  {
    blockNumber: blockNumber().notNull(),
    logIndex: integer().notNull(),
    txHash: text().notNull(),
    wallet: address().notNull(),
    poolAddress: address().notNull(),
    tokenAddress: address().notNull(),
    /** add | remove. */
    direction: text().notNull(),
    /** V2: LP shares minted to the provider or burnt; V3: the Mint's or Burn's liquidity; 0 for a Collect. */
    units: uint256().notNull(),
    quoteUsd: usd().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.blockNumber, t.logIndex] }),
    // A reorg rebuilds a token's stakes from its changes.
    index("liquidity_changes_token_idx").on(t.tokenAddress, t.blockNumber),
  ],
);

/**
 * The profile's known contracts by role (position_manager, locker, launchpad, factory, router) and its quote tokens
 * (quote_token, named by symbol): written by the worker at start.
 */
export const chainContracts = pgTable("chain_contracts", {
  address: address().primaryKey(),
  role: text().notNull(),
  name: text().notNull(),
});
