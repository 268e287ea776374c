import { names, tableName } from "@/db/bulk";
import { blocks, events, poolReserves, pools as poolsTable } from "@/db/schema";
import type { LiquidityChange, LiquidityPoint } from "@/lib/scoring";
import type { Tx } from "../../indexer/sql";
import type { ChainState, PoolState } from "../../indexer/state";
import { quoteUsd } from "../prices";
import { BY_TOKEN_IN_ID_ORDER } from "./swaps";

/**
 * Liquidity history keeps, per pool and bucket of this many seconds, the lowest, highest and last
 * reserve: enough for drawdowns (the extremes survive) without reading every Sync of a busy pool.
 * The retention of raw history (worker/retention.ts) keeps the same rows, ordered the same way.
 */
export const HISTORY_BUCKET_SECONDS = 300;

const bk = names(blocks);
const ev = names(events);
const pr = names(poolReserves);
const pl = names(poolsTable);
const RESERVES = tableName(poolReserves);

/** The token's pools that carry USD liquidity (quoted in WETH or a stable), with the quote side. */
function quotedPools(state: ChainState, token: string) {
  return (state.poolsByToken.get(token) ?? []).flatMap((p: PoolState) => {
    const quote = p.token0 === token ? p.token1 : p.token0;
    return state.isQuote(quote) ? [{ pool: p.address, side: p.token0 === token ? 1 : 0, quote }] : [];
  });
}

/**
 * USD liquidity over time of each token, summed over its quoted pools (a pool keeps its last
 * value between its own Syncs). Liquidity is twice the quote side, as in token_metrics; WETH is
 * priced at the current rate, since only the token's own liquidity moves are of interest here.
 * Each pool's rows by its own key range, in a lateral ordered so that PostgreSQL cannot fold it
 * into a join: it hashed all of pool_reserves for each slice (0.94-0.96 s a slice of 2,000 tokens
 * at 1.25M actions, against 0.65-0.72 s by the key).
 */
export async function liquidityHistories(
  tx: Tx,
  state: ChainState,
  tokens: string[],
): Promise<Map<string, LiquidityPoint[]>> {
  const pools = tokens.flatMap((token) => quotedPools(state, token).map((p) => ({ ...p, token })));
  const out = new Map<string, LiquidityPoint[]>(tokens.map((t) => [t, []]));
  if (pools.length === 0) return out;
  const rows = await tx.unsafe<{ pool: string; block: string; ts: number; quote: number }[]>(
    `with p as (select * from unnest($1::text[], $2::int[]) p(pool, side)),
     r as (select x.*, extract(epoch from b.${bk.timestamp})::float8 as ts
             from p cross join lateral (
               select r.${pr.poolAddress} as pool, r.${pr.blockNumber} as block, r.${pr.logIndex} as log_index,
                      (case when p.side = 0 then r.${pr.reserve0} else r.${pr.reserve1} end)::float8 as quote
                 from ${RESERVES} r where r.${pr.poolAddress} = p.pool
                order by r.${pr.blockNumber}, r.${pr.logIndex}) x
             join ${tableName(blocks)} b on b.${bk.number} = x.block),
     ranked as (select r.*, floor(ts / $3) as bucket from r),
     marked as (select *,
                  row_number() over (partition by pool, bucket order by quote, block, log_index) as lo,
                  row_number() over (partition by pool, bucket order by quote desc, block, log_index) as hi,
                  row_number() over (partition by pool, bucket order by block desc, log_index desc) as last
                  from ranked)
     select pool, block, ts, quote from marked where lo = 1 or hi = 1 or last = 1 order by block, log_index`,
    [pools.map((p) => p.pool), pools.map((p) => p.side), HISTORY_BUCKET_SECONDS],
  );
  const byPool = new Map(pools.map((p) => [p.pool, p]));
  const current = new Map<string, Map<string, number>>(tokens.map((t) => [t, new Map()]));
  for (const r of rows) {
    const p = byPool.get(r.pool)!;
    const usd = (2 * r.quote * quoteUsd(state, p.quote)) / 10 ** state.decimalsOf(p.quote);
    const perPool = current.get(p.token)!;
    perPool.set(p.pool, usd);
    let total = 0;
    for (const v of perPool.values()) total += v;
    out.get(p.token)!.push({ block: Number(r.block), timestamp: r.ts, liquidityUsd: total });
  }
  return out;
}

/**
 * Every liquidity_add / liquidity_remove of the tokens with its share of the pool's token side.
 * `prior` is the last reserve row before the change's log. In a V2 pair that is the Sync just
 * before the Mint or Burn, which holds the reserve after the change, so the reserve before is
 * that ± the amount. A V3 pool's row is written at the Mint or Burn itself (a Burn leaves the
 * tokens in the pool until its Collect), so the row before holds the reserve before the change.
 */
export async function liquidityChanges(tx: Tx, tokens: string[]): Promise<Map<string, LiquidityChange[]>> {
  const rows = await tx.unsafe<
    {
      token: string;
      type: string;
      provider: string;
      pool: string;
      amount: number;
      usd: number;
      block: string;
      ts: number;
      tx_hash: string;
      v3: boolean;
      prior: number | null;
    }[]
  >(
    `select e.${ev.tokenAddress} as token, e.${ev.type} as type, e.${ev.walletAddress} as provider,
            e.${ev.poolAddress} as pool, e.${ev.tokenAmount}::float8 as amount, e.${ev.amountUsd} as usd,
            e.${ev.blockNumber} as block, extract(epoch from e.${ev.timestamp})::float8 as ts,
            e.${ev.txHash} as tx_hash,
            p.${pl.protocol} = 'uniswap-v3' as v3,
            (select (case when p.${pl.token0} = e.${ev.tokenAddress} then r.${pr.reserve0}
                          else r.${pr.reserve1} end)::float8
              from ${RESERVES} r
              where r.${pr.poolAddress} = e.${ev.poolAddress}
                and (r.${pr.blockNumber}, r.${pr.logIndex}) < (e.${ev.blockNumber}, e.${ev.logIndex})
              order by r.${pr.blockNumber} desc, r.${pr.logIndex} desc limit 1) as prior
       from ${tableName(events)} e join ${tableName(poolsTable)} p on p.${pl.address} = e.${ev.poolAddress}
      where e.${ev.type} in ('liquidity_add', 'liquidity_remove') and e.${ev.tokenAddress} = any($1::text[])
      order by ${BY_TOKEN_IN_ID_ORDER}`,
    [tokens],
  );
  const out = new Map<string, LiquidityChange[]>(tokens.map((t) => [t, []]));
  for (const r of rows) {
    const kind = r.type === "liquidity_add" ? "add" : "remove";
    const prior = r.prior ?? 0;
    const before = r.v3 ? prior : kind === "add" ? prior - r.amount : prior + r.amount;
    out.get(r.token)!.push({
      kind,
      provider: r.provider,
      pool: r.pool,
      // The first deposit into an empty pool is all of it.
      shareOfPool: before > 0 ? Math.min(r.amount / before, 1) : 1,
      amountUsd: r.usd,
      block: Number(r.block),
      timestamp: r.ts,
      txHash: r.tx_hash,
    });
  }
  return out;
}
