import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { address, blockNumber, ts, uint256, usd } from "./columns";

/**
 * User-level events served by /v1/events. `id` is derived from the chain position
 * (block_number * 100000 + log_index), so it is monotonic, stable across re-indexing and
 * a safe resume cursor. A transfer names the sender in wallet_address and the receiver in
 * to_address; token movements inside a swap or liquidity change are not listed as transfers.
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
    amountUsd: usd().notNull().default(0),
    /** buy | sell for swaps (the trader's side), null otherwise. */
    direction: text(),
    blockNumber: blockNumber().notNull(),
    logIndex: integer().notNull(),
    txHash: text().notNull(),
    timestamp: ts().notNull(),
  },
  (t) => [
    index("events_token_idx").on(t.tokenAddress, t.id.desc()),
    index("events_wallet_idx").on(t.walletAddress, t.id.desc()),
    index("events_to_idx").on(t.toAddress, t.id.desc()).where(sql`${t.toAddress} is not null`),
    index("events_type_idx").on(t.type, t.id.desc()),
    index("events_block_idx").on(t.blockNumber),
  ],
);

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
 * Exact event totals per scope ('all' or 'type:<t>'), kept by statement triggers on events
 * (migration 0001) so list totals never count millions of rows.
 */
/**
 * Events per (block, type), kept by the same triggers: exact totals for `since`/`after` bounds
 * and deep pages sum block rows instead of counting or skipping millions of events.
 */
export const eventBlockCounts = pgTable(
  "event_block_counts",
  {
    blockNumber: blockNumber().notNull(),
    type: text().notNull(),
    count: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.blockNumber, t.type] })],
);

export const eventCounts = pgTable(
  "event_counts",
  {
    scope: text().notNull(),
    count: bigint({ mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope] })],
);
