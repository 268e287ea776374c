/**
 * Retention of raw history no read needs (RAW_HISTORY_RETENTION_BLOCKS; off by default): pool
 * reserve rows older than the kept blocks that a later row of the same pool supersedes for every
 * reader. `pool_reserves` gets a row per Sync (every swap and liquidity change), and three reads
 * use its history, each of which keeps reading the same rows:
 *
 * - the liquidity history of the token scores (`liquidityHistories`): per pool and 5-minute
 *   bucket, the lowest and highest quote reserve and the last row. Those rows of either side are
 *   kept, chosen in the same order; only buckets wholly before the cutoff block are touched, so
 *   no row can join them later and the first row in each order stays the first.
 * - the share of a liquidity change (`liquidityChanges`): the pool's last row before the change's
 *   log. Kept for every liquidity event.
 * - a reorg rollback (`rollbackTo`): each pool's last row at or before the common ancestor. Every
 *   row above the cutoff is kept, and at least the finality depth's blocks are: a reorg within it
 *   finds its row above the cutoff or in a closed bucket (its last row). A deeper reorg is an
 *   incident (logged as one by the live sync), and may restore a pool to an older row.
 *
 * The other raw tables stay whole: a rollback rebuilds a token's balances and positions from all
 * of its transfers (`token_transfers`) and liquidity changes, V3 positions from all their
 * position events, and the API serves every event.
 */
import { names, tableName } from "@/db/bulk";
import type { Sql } from "@/db/client";
import { blocks, events, poolReserves, pools } from "@/db/schema";
import { log } from "@/lib/log";
import { HISTORY_BUCKET_SECONDS } from "./derive/scoring/liquidity";
import type { CycleContext } from "./worker";

/** Pools per statement: each one reads and deletes the history of this many pools at most. */
const POOLS_PER_BATCH = 500;

const r = names(poolReserves);
const b = names(blocks);
const e = names(events);
const p = names(pools);
const RESERVES = tableName(poolReserves);

/** The next batch of pools after $1 (by address). */
const NEXT_POOLS = `select ${p.address} as address from ${tableName(pools)} where ${p.address} > $1
                     order by ${p.address} limit $2`;

/**
 * Deletes the reserve rows of the pools $1 in 5-minute buckets (of $3 seconds) that end before the
 * bucket of the last stored block at or before $2 (blocks holds those with facts and the recent ones), except each bucket's extremes of either side and its last row, and each liquidity
 * change's row before it. The order of each extreme is `liquidityHistories`'s.
 */
const PRUNE = `
  with cut as (select floor(extract(epoch from ${b.timestamp})::float8 / $3) as bucket
                 from ${tableName(blocks)} where ${b.number} <= $2 order by ${b.number} desc limit 1),
  closed as (
    select x.${r.poolAddress} as pool, x.${r.blockNumber} as block, x.${r.logIndex} as log,
           x.${r.reserve0}::float8 as q0, x.${r.reserve1}::float8 as q1,
           floor(extract(epoch from bl.${b.timestamp})::float8 / $3) as bucket
      from ${RESERVES} x join ${tableName(blocks)} bl on bl.${b.number} = x.${r.blockNumber}
     where x.${r.poolAddress} = any($1::text[]) and x.${r.blockNumber} <= $2
       and floor(extract(epoch from bl.${b.timestamp})::float8 / $3) < (select bucket from cut)),
  marked as (
    select pool, block, log,
           row_number() over (partition by pool, bucket order by q0, block, log) as lo0,
           row_number() over (partition by pool, bucket order by q0 desc, block, log) as hi0,
           row_number() over (partition by pool, bucket order by q1, block, log) as lo1,
           row_number() over (partition by pool, bucket order by q1 desc, block, log) as hi1,
           row_number() over (partition by pool, bucket order by block desc, log desc) as last
      from closed),
  priors as (
    select prior.pool, prior.block, prior.log
      from ${tableName(pools)} pl
      join ${tableName(events)} ev on ev.${e.tokenAddress} in (pl.${p.token0}, pl.${p.token1})
                                  and ev.${e.poolAddress} = pl.${p.address}
                                  and ev.${e.type} in ('liquidity_add', 'liquidity_remove')
      cross join lateral (
        select y.${r.poolAddress} as pool, y.${r.blockNumber} as block, y.${r.logIndex} as log
          from ${RESERVES} y
         where y.${r.poolAddress} = ev.${e.poolAddress}
           and (y.${r.blockNumber}, y.${r.logIndex}) < (ev.${e.blockNumber}, ev.${e.logIndex})
         order by y.${r.blockNumber} desc, y.${r.logIndex} desc limit 1) prior
     where pl.${p.address} = any($1::text[]))
  delete from ${RESERVES} d using marked m
   where d.${r.poolAddress} = m.pool and d.${r.blockNumber} = m.block and d.${r.logIndex} = m.log
     and m.lo0 > 1 and m.hi0 > 1 and m.lo1 > 1 and m.hi1 > 1 and m.last > 1
     and not exists (select 1 from priors x where x.pool = m.pool and x.block = m.block and x.log = m.log)`;

/** Rows older than the cutoff block that no read needs, deleted pool batch by pool batch; returns how many. */
export async function pruneReserves(sql: Sql, cutoff: number, signal?: AbortSignal): Promise<number> {
  let deleted = 0;
  let after = "";
  while (!signal?.aborted) {
    const batch = (await sql.unsafe<{ address: string }[]>(NEXT_POOLS, [after, POOLS_PER_BATCH])).map((x) => x.address);
    if (batch.length === 0) break;
    deleted += (await sql.unsafe(PRUNE, [batch, cutoff, HISTORY_BUCKET_SECONDS])).count;
    after = batch.at(-1)!;
  }
  return deleted;
}

/**
 * The worker's retention: after a cycle at the head, at most once per bucket of chain time, a
 * pass beside the indexer (never delaying the next cycle) over the blocks older than the kept
 * ones, `keepBlocks` or the finality depth, whichever is more.
 */
export class RawHistoryRetention {
  private running: Promise<unknown> | null = null;
  private lastPassTime = Number.NEGATIVE_INFINITY;

  constructor(private readonly opts: { keepBlocks: number; signal?: AbortSignal }) {}

  /** startWorker's afterCycle: starts a pass when one is due and none is running; never waits for it. */
  readonly afterCycle = async (
    ctx: Pick<CycleContext, "sql" | "profile" | "head" | "indexedBlock" | "indexedTime">,
  ) => {
    if (this.running || ctx.indexedBlock < ctx.head) return;
    if (ctx.indexedTime - this.lastPassTime < HISTORY_BUCKET_SECONDS) return;
    this.lastPassTime = ctx.indexedTime;
    const cutoff = ctx.indexedBlock - Math.max(this.opts.keepBlocks, ctx.profile.finalityDepth);
    this.running = pruneReserves(ctx.sql, cutoff, this.opts.signal)
      .then((deleted) => deleted && log.info("retention: pool reserve rows deleted", { deleted, cutoff }))
      .catch((err) => log.error("retention pass failed", { error: String(err) }))
      .finally(() => {
        this.running = null;
      });
  };

  /** Resolves once no pass is running. */
  idle = async () => void (await this.running);
}
