import { tableName } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { CHAIN_DERIVED_TABLES } from "@/db/schema";

/** Events written since the last analyze from which the statistics are refreshed at all. */
const MIN_EVENTS = 10_000;

/**
 * A tenth of PostgreSQL's default sample: enough for the row counts and the spread of values
 * that choose a plan, at a fraction of the cost (bench:indexer's three passes: 0.4-0.5 s in all,
 * against 2.5 s at the default). Autovacuum's own analyze, at the server's target, replaces it
 * once a table grew by a tenth.
 */
const STATISTICS_TARGET = 10;

const ANALYZE = `analyze ${CHAIN_DERIVED_TABLES.map((t) => tableName(t.table)).join(", ")}`;

/**
 * The planner's statistics of the chain tables through a backfill. Autovacuum analyzes a table
 * a minute or more after it grew (and some servers run none), so without this the ranges and the
 * full refresh after a backfill run on plans made for tables a fraction of their size: on
 * bench:indexer's chain the refresh's token metrics statement took 2.1-3.1 s instead of 0.3 s.
 * Refreshed whenever the events written since the last refresh reach those written before it
 * (each time the tables have about doubled: a few passes, each sampling a bounded number of rows).
 */
export class ChainStatistics {
  private analyzedAt = 0;

  /** After a backfill range: `eventsWritten`, the events this run has written so far. */
  async afterWrite(sql: Sql, eventsWritten: number) {
    if (eventsWritten - this.analyzedAt < Math.max(MIN_EVENTS, this.analyzedAt)) return;
    await sql.begin(async (tx) => {
      await tx.unsafe(`set local default_statistics_target = ${STATISTICS_TARGET}`);
      await tx.unsafe(ANALYZE);
    });
    this.analyzedAt = eventsWritten;
  }
}
