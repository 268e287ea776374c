import { sql } from "drizzle-orm";
import { bigint, doublePrecision, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { address, blockNumber, ts, uint256, usd } from "./columns";

/**
 * User-level events served by /v1/events. `id` is derived from the chain position:
 * block_number * 100000 + the event's sequence in its block (its log index, or after the highest
 * id of the block's tombstones when the block was indexed again after a reorg), so it is
 * monotonic in chain order, never reused, and a safe resume cursor. A transfer names the sender
 * in wallet_address and the receiver in to_address; token movements inside a swap or liquidity
 * change are not listed as transfers.
 */
export const events = pgTable(
  "events",
  {
    id: bigint({ mode: "number" }).primaryKey(),
    type: text().notNull(),
    walletAddress: address().notNull(),
    toAddress: address(),
    tokenAddress: address().notNull(),
    poolAddress: address(),
    tokenAmount: uint256().notNull().default("0"),
    /**
     * The pool's quote token (WETH, a stablecoin) a swap paid or received, or a liquidity change
     * moved, in whole units. Null for transfers, and for events indexed before it was kept.
     */
    quoteAmount: doublePrecision(),
    amountUsd: usd().notNull().default(0),
    /**
     * The token's USD price by the pricing rule (worker/derive/prices.ts tokenPrice) right after
     * this swap or liquidity change: 0 while no pool of it holds the minimum quote liquidity.
     * Null for transfers, and for events indexed before it was kept. Candles and price changes read it.
     */
    priceUsd: usd(),
    /** buy | sell for swaps (the trader's side), null otherwise. */
    direction: text(),
    blockNumber: blockNumber().notNull(),
    logIndex: integer().notNull(),
    txHash: text().notNull(),
    timestamp: ts().notNull(),
  },
  // Ascending ids: scanned backward they serve ORDER BY id DESC. Declared .desc(), Drizzle
  // writes DESC NULLS LAST, which ORDER BY id DESC (NULLS FIRST) cannot use at all.
  (t) => [
    index("events_token_idx").on(t.tokenAddress, t.id),
    index("events_wallet_idx").on(t.walletAddress, t.id),
    index("events_to_idx").on(t.toAddress, t.id).where(sql`${t.toAddress} is not null`),
    index("events_type_idx").on(t.type, t.id),
    index("events_block_idx").on(t.blockNumber),
  ],
);

/**
 * Events a reorg rolled back, kept so ids are never reused and consumers of the stream learn
 * what was removed (GET /v1/events?include_removed=true, docs/event-stream.md). A block indexed
 * again after a rollback numbers its events after the highest id its tombstones hold.
 */
export const eventTombstones = pgTable(
  "event_tombstones",
  {
    id: bigint({ mode: "number" }).primaryKey(),
    type: text().notNull(),
    walletAddress: address().notNull(),
    toAddress: address(),
    tokenAddress: address().notNull(),
    blockNumber: blockNumber().notNull(),
    logIndex: integer().notNull(),
    txHash: text().notNull(),
    timestamp: ts().notNull(),
    removedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    index("event_tombstones_token_idx").on(t.tokenAddress, t.id),
    index("event_tombstones_wallet_idx").on(t.walletAddress, t.id),
    index("event_tombstones_to_idx").on(t.toAddress, t.id).where(sql`${t.toAddress} is not null`),
  ],
);

/**
 * One row per reorg rollback, in order: the block it rolled back to, and when (the removed_at of
 * the tombstones it left, written in the same transaction). A client resuming the event stream
 * from an event a reorg removed learns from it which blocks were indexed again since
 * (lib/queries/event-stream.ts), even where the removed blocks held no events. Ids are
 * max + 1 in the rollback's transaction, so two indexings of the same chain agree on them.
 */
export const reorgRollbacks = pgTable("reorg_rollbacks", {
  id: bigint({ mode: "number" }).primaryKey(),
  ancestorBlock: blockNumber().notNull(),
  removedAt: ts().notNull().defaultNow(),
});

/** Every ERC-20 Transfer log of an indexed token: the raw fact balances are derived from. */
export const tokenTransfers = pgTable(
  "token_transfers",
  {
    blockNumber: blockNumber().notNull(),
    logIndex: integer().notNull(),
    tokenAddress: address().notNull(),
    fromAddress: address().notNull(),
    toAddress: address().notNull(),
    amount: uint256().notNull(),
    txHash: text().notNull(),
    txFrom: address(),
    /**
     * How the tokens moved, seen from the side that is not a pair: buy | sell (legs of a swap),
     * lp_add | lp_remove (legs of a liquidity change), mint, transfer, or lp (a pair's LP token).
     */
    kind: text().notNull().default("transfer"),
    /** USD value when it moved; a leg carries its swap's or liquidity change's own value. */
    amountUsd: usd().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.blockNumber, t.logIndex] }),
    index("token_transfers_token_idx").on(t.tokenAddress, t.blockNumber),
  ],
);

/**
 * Events per scope ('all' or 'type:<t>', as in event_counts) and block, with the running total
 * up to that block, kept by the same triggers as event_counts. Exact totals under `since` and
 * `after` bounds and the start of a deep page are then one index probe each, not a count.
 */
export const eventCumulativeCounts = pgTable(
  "event_cumulative_counts",
  {
    scope: text().notNull(),
    blockNumber: blockNumber().notNull(),
    count: integer().notNull(),
    /** Events of the scope in blocks up to and including this one. */
    cum: bigint({ mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.blockNumber] }),
    index("event_cumulative_counts_cum_idx").on(t.scope, t.cum),
  ],
);

/**
 * Exact event totals per scope ('all', 'type:<t>', 'token:<address>' or 'wallet:<address>'), kept
 * by statement triggers on events (db/functions/event-counts.sql) so list totals never count
 * millions of rows, nor a busy token's or wallet's thousands.
 */
export const eventCounts = pgTable(
  "event_counts",
  {
    scope: text().notNull(),
    count: bigint({ mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope] })],
);
