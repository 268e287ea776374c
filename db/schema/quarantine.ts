import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { address, blockNumber, ts } from "./columns";

/**
 * Chain entities the indexer stopped following because their data cannot be indexed (one bad
 * token, pool or log never stops a range). A quarantined token or pool
 * is no longer watched: its later logs are skipped, its earlier data stays. Chain-derived: a
 * reorg rollback deletes the rows above the block it rolls back to, and indexing the new branch
 * quarantines again whatever is still poison there.
 */
export const quarantinedEntities = pgTable(
  "quarantined_entities",
  {
    /** token | pool | log */
    kind: text().notNull(),
    /** The token's or pool's address; for a log, `<tx hash>:<log index>`. */
    address: address().notNull(),
    /** What is wrong, in words (the worker logs it once, when the row is written). */
    reason: text().notNull(),
    /** The block of the first log (or the discovery) that could not be indexed. */
    block: blockNumber().notNull(),
    /** That block's timestamp: chain time, like every other derived time. */
    firstSeenAt: ts().notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.address] }), index("quarantined_entities_block_idx").on(t.block)],
);
