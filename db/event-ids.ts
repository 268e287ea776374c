import { type SQL, sql } from "drizzle-orm";
import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";

/**
 * The first event id after a time, as SQL (null when no block is newer): block timestamps
 * never decrease, so "after time T" is "from the first block after T", which keeps a time
 * filter on an id index's order. The block is found with two probes of blocks_timestamp_idx
 * (min(number) over the range would walk the primary key from the chain's first block).
 */
export function firstIdAfter(time: Date | SQL): SQL {
  const t = time instanceof Date ? sql`${time.toISOString()}::timestamptz` : time;
  return sql`(select min(number) from blocks where timestamp =
    (select min(timestamp) from blocks where timestamp > ${t})) * ${EVENT_ID_BLOCK_FACTOR}`;
}
