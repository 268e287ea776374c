import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { blockNumber, ts } from "./columns";

/**
 * Recent and historical block headers seen by the indexer. parent_hash lets the live sync
 * detect a reorg; event_count_cum (events up to and including the block) lets the API answer
 * exact totals for `since` filters without counting millions of rows.
 */
export const blocks = pgTable(
  "blocks",
  {
    number: blockNumber().primaryKey(),
    hash: text().notNull(),
    parentHash: text().notNull(),
    timestamp: ts().notNull(),
  },
  (t) => [index("blocks_timestamp_idx").on(t.timestamp)],
);

/** One row per chain: the checkpoint, written in the same transaction as the data it covers. */
export const syncState = pgTable("sync_state", {
  chainId: integer().primaryKey(),
  indexedBlock: blockNumber().notNull().default(0),
  indexedBlockHash: text(),
  indexedBlockTime: ts(),
  headBlock: blockNumber(),
  headBlockTime: ts(),
  /** Last time the worker reported alive; the status route derives liveness from it. */
  heartbeatAt: ts(),
  /** Increases on every write of chain-derived data, reorg rollbacks included; caches key on it. */
  dataVersion: blockNumber().notNull().default(0),
  updatedAt: ts().notNull().defaultNow(),
});
