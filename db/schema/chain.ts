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

/**
 * The channel the worker notifies (PostgreSQL NOTIFY, payload: the indexed block) in every
 * transaction that moves the checkpoint: a range committed, or a reorg rolled back. The API's
 * event stream listens on it (lib/api/stream/hub.ts).
 */
export const CHECKPOINT_CHANNEL = "checkpoint_moved";

/** One row per chain: the checkpoint, written in the same transaction as the data it covers. */
export const syncState = pgTable("sync_state", {
  chainId: integer().primaryKey(),
  indexedBlock: blockNumber().notNull().default(0),
  indexedBlockHash: text(),
  indexedBlockTime: ts(),
  headBlock: blockNumber(),
  headBlockTime: ts(),
  /**
   * When the worker's head probe (its own timer, independent of the indexing loop) last read
   * head_block and head_block_time from the node, by the worker's clock.
   */
  headCheckedAt: ts(),
  /** Last time the worker reported alive; the status route derives liveness from it. */
  heartbeatAt: ts(),
  /** Indexing cycles failed in a row (0 after a success), and when the last one failed. */
  consecutiveFailures: integer().notNull().default(0),
  lastFailureAt: ts(),
  /**
   * The chain profile's finality depth: events at or below indexed_block - finality_depth are
   * reported `confirmed`. Null until a worker wrote it (nothing is confirmed then).
   */
  finalityDepth: integer(),
  /** Increases on every write of chain-derived data, reorg rollbacks included; caches key on it. */
  dataVersion: blockNumber().notNull().default(0),
  updatedAt: ts().notNull().defaultNow(),
});
