import { sql } from "drizzle-orm";
import { type ColumnKey, insertSql, names, type Tx, tableName, updateRows, updateSql } from "@/db/bulk";
import { toQuery } from "@/db/client";
import { firstIdAfter } from "@/db/event-ids";
import { pools as poolsTable, tokenMetrics, tokenScores } from "@/db/schema";
import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import { holderGrowthPct } from "@/lib/scoring/holder-growth";
import { type TrendingInput, trendingScore } from "@/lib/scoring/trending";
import { BURN_ADDRESSES } from "@/lib/tokens/holders";
import type { ChainState, PoolState } from "../indexer/state";
import { MAX_USD, poolLiquidityUsd, poolPriceUsd, tokenPrice } from "./prices";

const BURN_LIST = BURN_ADDRESSES.map((a) => `'${a}'`).join(", ");

/** The indexed head the time-dependent figures (24 h volume, 1 h holder growth) are taken at. */
export type Head = { number: number; timestamp: number };

/** The windows of the price changes, in seconds before the head; the volume and trade counts use the 24 h and 1 h ones. */
const WINDOWS = { "5m": 300, "1h": 3_600, "24h": 86_400 } as const;

/** A pool event of token i with its price by the pricing rule after it (events.price_usd; 0 while unpriced). */
const PRICED_EVENT = `e.token_address = i.address and e.price_usd is not null`;

/**
 * The price a window's change starts from, as a lateral subquery: the token's price after its
 * last pool event before the window (id below `firstId`) when it had one, else the first price
 * inside the window (a token priced only since).
 */
const startPriceSql = (firstId: string) => `
  (select coalesce(
     (select nullif(e.price_usd, 0) from events e where ${PRICED_EVENT} and e.id < ${firstId} order by e.id desc limit 1),
     (select e.price_usd from events e where ${PRICED_EVENT} and e.price_usd > 0 and e.id >= ${firstId} order by e.id limit 1)))`;

/** Change in percent from `start` to the price now, held to ±MAX_USD as every figure; null without both prices. */
const changeSql = (start: string) =>
  `case when ${start} > 0 and i.price_usd > 0 then least(greatest((i.price_usd / ${start} - 1) * 100, -$8::float8), $8::float8) end`;

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
 * Price (at most MAX_USD) times at most 2^256 units stays far inside float8; the product is held to MAX_USD as every USD figure.
 * Market cap = price x circulating supply (docs/methodology.md), 0 for a token without a price (no pool holds the
 * minimum quote liquidity); supply held at burn addresses is not circulating. FDV = the same price x total supply.
 */
const WRITE_METRICS = insertSql(
  tokenMetrics,
  {
    address: "p.address",
    createdAt: "p.created_at",
    priceUsd: "p.price_usd",
    marketCapUsd:
      "least(greatest(p.price_usd * ((p.total_supply - p.burned) / power(10::numeric, p.decimals))::float8, -$8::float8), $8::float8)",
    fdvUsd:
      "least(greatest(p.price_usd * (p.total_supply / power(10::numeric, p.decimals))::float8, -$8::float8), $8::float8)",
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
    updatedBlock: "$7",
    updatedAt: "now()",
  },
  "from priced p left join swaps s on s.token_address = p.address",
  { target: ["address"], action: [...COMPUTED, "updatedBlock", "updatedAt"], whereChanged: [...COMPUTED] },
);

/** The first event id of the blocks after `time` (past the head when no block is newer), by the API's rule (db/event-ids.ts). */
export async function firstEventIdAfter(tx: Tx, time: number, head: Head): Promise<number> {
  const q = toQuery(sql`select (${firstIdAfter(sql`to_timestamp(${time}::float8)`)})::text as first`);
  const [{ first }] = await tx.unsafe<{ first: string | null }[]>(q.text, q.params);
  return first === null ? (head.number + 1) * EVENT_ID_BLOCK_FACTOR : Number(first);
}

/**
 * Rewrites the token_metrics rows of `tokens` (the list read model) and the USD liquidity of
 * their pools, as of `head`: price and liquidity from the pool reserves in `state`, market cap
 * and FDV from price and supply, 24 h and 1 h swap volume, the 24 h buys, sells and distinct
 * traders, and the price's change over 5 min, 1 h and 24 h from events' prices, holder count and
 * its growth over the past hour (lib/scoring/holder-growth.ts) from holder_count_history. Every
 * window ends at the head's time.
 * Rows that did not change are not written.
 */
export async function refreshTokenMetrics(tx: Tx, state: ChainState, tokens: string[], head: Head) {
  if (tokens.length === 0) return;
  const prices = tokens.map((t) => tokenPrice(state, t));
  const first5m = await firstEventIdAfter(tx, head.timestamp - WINDOWS["5m"], head);
  const first1h = await firstEventIdAfter(tx, head.timestamp - WINDOWS["1h"], head);
  const first24h = await firstEventIdAfter(tx, head.timestamp - WINDOWS["24h"], head);
  // Each token's holder count now and an hour before the head: the last history row at or before each time.
  const holders = await tx.unsafe<{ now: number; before: number }[]>(
    `select coalesce((select h.holder_count from holder_count_history h where h.token_address = i.address
                       order by h.at desc limit 1), 0) as now,
            coalesce((select h.holder_count from holder_count_history h where h.token_address = i.address and h.at <= to_timestamp($2)
                       order by h.at desc limit 1), 0) as before
       from unnest($1::text[]) with ordinality i(address, n) order by i.n`,
    [tokens, head.timestamp - WINDOWS["1h"]],
  );
  await tx.unsafe(
    `with input as (
       select * from unnest($1::text[], $2::float8[], $3::float8[], $4::text[], $11::int[], $6::float8[])
                i(address, price_usd, liquidity_usd, priced_pool, holder_count, holder_growth_1h_pct)),
     swaps as (
       select e.token_address, sum(e.amount_usd::numeric)::float8 as usd24h,
              coalesce(sum(e.amount_usd::numeric) filter (where e.id >= $9), 0)::float8 as usd1h,
              count(*) filter (where e.direction = 'buy')::int as buys, count(*) filter (where e.direction = 'sell')::int as sells,
              count(distinct e.wallet_address)::int as makers
         from events e
        where e.type = 'swap' and e.id >= $5 and e.token_address = any($1::text[]) group by e.token_address),
     priced as (
       select i.*, t.created_at, t.total_supply, t.decimals, coalesce(burned.amount, 0) as burned,
              ${changeSql("p5m.price")} as change5m, ${changeSql("p1h.price")} as change1h, ${changeSql("p24h.price")} as change24h
         from input i join tokens t on t.address = i.address
         left join lateral (select ${startPriceSql("$10")} as price) p5m on true
         left join lateral (select ${startPriceSql("$9")} as price) p1h on true
         left join lateral (select ${startPriceSql("$5")} as price) p24h on true
         left join lateral (select sum(x.amount) as amount from balances x
                             where x.token_address = i.address and x.holder in (${BURN_LIST})) burned on true)
     ${WRITE_METRICS}`,
    [
      tokens,
      prices.map((p) => p.priceUsd),
      prices.map((p) => p.liquidityUsd),
      prices.map((p) => p.pool),
      first24h,
      holders.map((h) => holderGrowthPct(h.now, h.before)),
      head.number,
      MAX_USD,
      first1h,
      first5m,
      holders.map((h) => h.now),
    ],
  );
}

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
    `select e.pool_address as pool, sum(e.amount_usd::numeric)::float8 as usd, count(*)::int as swaps from events e
      where e.type = 'swap' and e.id >= $1 and e.token_address = any($2::text[]) and e.pool_address = any($3::text[]) group by e.pool_address`,
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
    `select m.address, m.volume_24h_usd as "volume24hUsd", m.holder_growth_1h_pct as "holderGrowth1hPct", s.risk_score as "riskScore",
            m.price_usd as "priceUsd", s.flags
       from token_metrics m join token_scores s on s.address = m.address
      where m.address = any($1::text[])`,
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
  `from unnest($1::text[], $2::float8[]) v(address, trending) join ${tableName(tokenScores)} s on s.${s.address} = v.address`,
  `t.${m.address} = v.address`,
  { onlyChanged: true },
);
