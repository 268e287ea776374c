import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type ColumnKey, insertSql, names, type Tx, tableName, updateRows, updateSql } from "@/db/bulk";
import { toQuery } from "@/db/client";
import { firstIdAfter } from "@/db/event-ids";
import {
  balances,
  events,
  holderCountHistory,
  pools as poolsTable,
  tokenMetrics,
  tokenScores,
  tokens,
} from "@/db/schema";
import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import { type TrendingInput, trendingScore } from "@/lib/scoring/trending";
import { BURN_ADDRESSES } from "@/lib/tokens/holders";
import type { ChainState, PoolState } from "../indexer/state";
import { poolLiquidityUsd, poolPriceUsd, tokenPrice } from "./prices";
import { type StoredTokenFacts, type TokenFigures, tokenFigures } from "./token-figures";

/** The indexed head the time-dependent figures (24 h volume, 1 h holder growth) are taken at. */
export type Head = { number: number; timestamp: number };

/**
 * The windows of the price changes, in seconds before the head; the volume and trade counts use the
 * 24 h and 1 h ones.
 */
const WINDOWS = { "5m": 300, "1h": 3_600, "24h": 86_400 } as const;
type Window = keyof typeof WINDOWS;

const ev = alias(events, "ev");
const hist = alias(holderCountHistory, "hist");
const bal = alias(balances, "bal");
const tk = alias(tokens, "tk");
/** The row of `tokens` each of refreshTokenMetrics' statements reads a token by: `i.address`. */
const TOKEN = sql.raw("i.address");

/**
 * The price a window's change starts from, as a subquery: the token's price after its last pool
 * event before the window (id below `firstId`) when it had one, else the first price inside the
 * window (a token priced only since). A pool event's price is the pricing rule's after it
 * (events.price_usd; 0 while unpriced).
 */
const startPriceSql = (firstId: number) => sql`coalesce(
  (select nullif(${ev.priceUsd}, 0) from ${events} ev where ${ev.tokenAddress} = ${TOKEN} and ${ev.priceUsd} is not null
      and ${ev.id} < ${firstId} order by ${ev.id} desc limit 1),
  (select ${ev.priceUsd} from ${events} ev where ${ev.tokenAddress} = ${TOKEN} and ${ev.priceUsd} > 0
      and ${ev.id} >= ${firstId} order by ${ev.id} limit 1))`;

/** A token's holder count at `time` (Unix seconds; null: now): the last history row at or before it, else 0. */
const holdersAtSql = (time: number | null) => sql`coalesce((select ${hist.holderCount} from ${holderCountHistory} hist
  where ${hist.tokenAddress} = ${TOKEN} ${time === null ? sql`` : sql`and ${hist.at} <= to_timestamp(${time})`}
  order by ${hist.at} desc limit 1), 0)`;

/** A supply in units, from an exact amount of the token's base units (numeric, converted once). */
const unitsSql = (amount: SQL) => sql`(${amount} / power(10::numeric, ${tk.decimals}))::float8`;

/**
 * What the database holds of each of `tokens` for its figures (token-figures.ts), in their order:
 * the supply in units, all of it and what burn addresses do not hold, the start price of each
 * change window (`first`: each window's first event id), and the holder count now and at `hourAgo`.
 */
async function readTokenFacts(
  tx: Tx,
  tokenList: string[],
  first: Record<Window, number>,
  hourAgo: number,
): Promise<StoredTokenFacts[]> {
  const burned = sql`coalesce((select sum(${bal.amount}) from ${balances} bal
    where ${bal.tokenAddress} = ${TOKEN} and ${bal.holder} in (${sql.join(
      BURN_ADDRESSES.map((a) => sql`${a}`),
      sql`, `,
    )})), 0)`;
  const q = toQuery(sql`
    select ${unitsSql(sql`${tk.totalSupply}`)} as "totalUnits",
           ${unitsSql(sql`(${tk.totalSupply} - ${burned})`)} as "circulatingUnits",
           ${startPriceSql(first["5m"])} as "start5m", ${startPriceSql(first["1h"])} as "start1h",
           ${startPriceSql(first["24h"])} as "start24h",
           ${holdersAtSql(null)} as "holdersNow", ${holdersAtSql(hourAgo)} as "holdersHourAgo"
      from unnest(${sql.param(tokenList)}::text[]) with ordinality i(address, n)
      left join ${tokens} tk on ${tk.address} = ${TOKEN}
     order by i.n`);
  const rows = await tx.unsafe<
    {
      totalUnits: number | null;
      circulatingUnits: number | null;
      start5m: number | null;
      start1h: number | null;
      start24h: number | null;
      holdersNow: number;
      holdersHourAgo: number;
    }[]
  >(q.text, q.params);
  // A token without a row in tokens has no metrics row either: the write joins tokens.
  return rows.map((r) => ({
    totalUnits: r.totalUnits ?? 0,
    circulatingUnits: r.circulatingUnits ?? 0,
    startPrice: { "5m": r.start5m, "1h": r.start1h, "24h": r.start24h },
    holdersNow: r.holdersNow,
    holdersHourAgo: r.holdersHourAgo,
  }));
}

/** The token_metrics columns refreshTokenMetrics computes (the others: refreshRanking). */
const COMPUTED = [
  "priceUsd",
  "marketCapUsd",
  "fdvUsd",
  "liquidityUsd",
  "volume24hUsd",
  "volume1hUsd",
  "buys24h",
  "sells24h",
  "makers24h",
  "priceChange5mPct",
  "priceChange1hPct",
  "priceChange24hPct",
  "holderCount",
  "holderGrowth1hPct",
  "pricedPool",
] as const satisfies ColumnKey<typeof tokenMetrics>[];

/**
 * The insert of refreshTokenMetrics from its `priced` and `swaps` rows; a row that did not change is not written.
 * The figures are made in TypeScript (token-figures.ts); the swaps' sums and counts here.
 */
const WRITE_METRICS = insertSql(
  tokenMetrics,
  {
    address: "p.address",
    createdAt: "p.created_at",
    priceUsd: "p.price_usd",
    marketCapUsd: "p.market_cap_usd",
    fdvUsd: "p.fdv_usd",
    liquidityUsd: "p.liquidity_usd",
    volume24hUsd: "coalesce(s.usd24h, 0)",
    volume1hUsd: "coalesce(s.usd1h, 0)",
    buys24h: "coalesce(s.buys, 0)",
    sells24h: "coalesce(s.sells, 0)",
    makers24h: "coalesce(s.makers, 0)",
    priceChange5mPct: "p.change5m",
    priceChange1hPct: "p.change1h",
    priceChange24hPct: "p.change24h",
    holderCount: "p.holder_count",
    holderGrowth1hPct: "p.holder_growth_1h_pct",
    pricedPool: "p.priced_pool",
    updatedBlock: "p.updated_block",
    updatedAt: "now()",
  },
  "from priced p left join swaps s on s.token_address = p.address",
  { target: ["address"], action: [...COMPUTED, "updatedBlock", "updatedAt"], whereChanged: [...COMPUTED] },
);

/**
 * The first event id of the blocks after `time` (past the head when no block is newer), by the API's
 * rule (db/event-ids.ts).
 */
export async function firstEventIdAfter(tx: Tx, time: number, head: Head): Promise<number> {
  const q = toQuery(sql`select (${firstIdAfter(sql`to_timestamp(${time}::float8)`)})::text as first`);
  const [{ first }] = await tx.unsafe<{ first: string | null }[]>(q.text, q.params);
  return first === null ? (head.number + 1) * EVENT_ID_BLOCK_FACTOR : Number(first);
}

/**
 * Rewrites the token_metrics rows of `tokenList` (the list read model) and the USD liquidity of
 * their pools, as of `head`: price and liquidity from the pool reserves in `state`, the figures
 * of token-figures.ts (market cap, FDV, the price's change over 5 min, 1 h and 24 h from events'
 * prices, holder count and its growth over the past hour from holder_count_history), the 24 h
 * and 1 h swap volume and the 24 h buys, sells and distinct traders. Every window ends at the
 * head's time. Rows that did not change are not written.
 */
export async function refreshTokenMetrics(tx: Tx, state: ChainState, tokenList: string[], head: Head) {
  if (tokenList.length === 0) return;
  const prices = tokenList.map((a) => tokenPrice(state, a));
  const first = {
    "5m": await firstEventIdAfter(tx, head.timestamp - WINDOWS["5m"], head),
    "1h": await firstEventIdAfter(tx, head.timestamp - WINDOWS["1h"], head),
    "24h": await firstEventIdAfter(tx, head.timestamp - WINDOWS["24h"], head),
  };
  const facts = await readTokenFacts(tx, tokenList, first, head.timestamp - WINDOWS["1h"]);
  const figures = facts.map((f, i) => tokenFigures(prices[i].priceUsd, f));
  const column = <K extends keyof TokenFigures>(k: K) => sql.param(figures.map((f) => f[k]));
  const q = toQuery(sql`
    with input as (
      select * from unnest(${sql.param(tokenList)}::text[], ${sql.param(prices.map((p) => p.priceUsd))}::float8[],
                           ${sql.param(prices.map((p) => p.liquidityUsd))}::float8[],
                           ${sql.param(prices.map((p) => p.pool))}::text[],
                           ${column("marketCapUsd")}::float8[], ${column("fdvUsd")}::float8[],
                           ${column("priceChange5mPct")}::float8[], ${column("priceChange1hPct")}::float8[],
                           ${column("priceChange24hPct")}::float8[], ${column("holderCount")}::int[],
                           ${column("holderGrowth1hPct")}::float8[])
               i(address, price_usd, liquidity_usd, priced_pool, market_cap_usd, fdv_usd, change5m, change1h,
                 change24h, holder_count, holder_growth_1h_pct)),
    -- Each token's window by its own index range (token, id): over token = any(...) PostgreSQL walked
    -- the whole window by the primary key for a full refresh's slice of 2,000 tokens (450 ms at 5M
    -- actions, whose last day holds half the events, against 206 ms), a cost that grew with the chain
    -- times its slices.
    swaps as (
      select i.address as token_address, x.* from input i cross join lateral (
        select sum(${ev.amountUsd}::numeric)::float8 as usd24h,
               coalesce(sum(${ev.amountUsd}::numeric) filter (where ${ev.id} >= ${first["1h"]}), 0)::float8 as usd1h,
               count(*) filter (where ${ev.direction} = 'buy')::int as buys,
               count(*) filter (where ${ev.direction} = 'sell')::int as sells,
               count(distinct ${ev.walletAddress})::int as makers
          from ${events} ev
         where ${ev.tokenAddress} = i.address and ${ev.type} = 'swap' and ${ev.id} >= ${first["24h"]}) x),
    priced as (
      select i.*, ${tk.createdAt} as created_at, ${head.number}::bigint as updated_block
        from input i join ${tokens} tk on ${tk.address} = i.address)
    ${sql.raw(WRITE_METRICS)}`);
  await tx.unsafe(q.text, q.params);
}

const en = names(events);
/**
 * USD liquidity and price of pools at the current reserves and prices (WETH moves them for every
 * WETH pair), and their swap volume and swaps in the 24 h up to `head`.
 */
export async function refreshPoolLiquidity(tx: Tx, state: ChainState, pools: PoolState[], head: Head) {
  if (pools.length === 0) return;
  const first24h = await firstEventIdAfter(tx, head.timestamp - WINDOWS["24h"], head);
  // A pool's events carry its indexed token: the token index finds them.
  const tokens = [...new Set(pools.flatMap((p) => [p.token0, p.token1].filter((t) => state.tokens.has(t))))];
  const swaps = await tx.unsafe<{ pool: string; usd: number; swaps: number }[]>(
    `select e.${en.poolAddress} as pool, sum(e.${en.amountUsd}::numeric)::float8 as usd, count(*)::int as swaps
       from ${tableName(events)} e
      where e.${en.type} = 'swap' and e.${en.id} >= $1 and e.${en.tokenAddress} = any($2::text[])
        and e.${en.poolAddress} = any($3::text[])
      group by e.${en.poolAddress}`,
    [first24h, tokens, pools.map((p) => p.address)],
  );
  const traded = new Map(swaps.map((s) => [s.pool, s]));
  await updateRows(
    tx,
    poolsTable,
    pools.map((p) => ({
      address: p.address,
      liquidityUsd: poolLiquidityUsd(state, p),
      priceUsd: poolPriceUsd(state, p),
      volume24hUsd: traded.get(p.address)?.usd ?? 0,
      swaps24h: traded.get(p.address)?.swaps ?? 0,
    })),
    { match: ["address"], onlyChanged: true },
  );
}

/** Mirrors token_scores into the list read model and ranks it for sort=trending (lib/scoring/trending.ts). */
export async function refreshRanking(tx: Tx, tokens: string[]) {
  if (tokens.length === 0) return;
  const inputs = await tx.unsafe<({ address: string } & TrendingInput)[]>(
    `select m.${m.address} as address, m.${m.volume24hUsd} as "volume24hUsd",
            m.${m.holderGrowth1hPct} as "holderGrowth1hPct", s.${s.riskScore} as "riskScore",
            m.${m.priceUsd} as "priceUsd", s.${s.flags} as flags
       from ${tableName(tokenMetrics)} m join ${tableName(tokenScores)} s on s.${s.address} = m.${m.address}
      where m.${m.address} = any($1::text[])`,
    [tokens],
  );
  if (inputs.length === 0) return;
  await tx.unsafe(RANK, [inputs.map((i) => i.address), inputs.map(trendingScore)]);
}

const m = names(tokenMetrics);
const s = names(tokenScores);
/** token_metrics' copy of each token's scores, and its trending score ($1 tokens, $2 their trending scores). */
const RANK = updateSql(
  tokenMetrics,
  { riskScore: `s.${s.riskScore}`, riskFlags: `s.${s.flags}`, trendingScore: "v.trending" },
  `from unnest($1::text[], $2::float8[]) v(address, trending) join ${tableName(tokenScores)} s
     on s.${s.address} = v.address`,
  `t.${m.address} = v.address`,
  { onlyChanged: true },
);
