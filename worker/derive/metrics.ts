import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
import { holderGrowthPct } from "@/lib/scoring/holder-growth";
import { trendingScore } from "@/lib/scoring/trending";
import { BURN_ADDRESSES } from "@/lib/tokens/holders";
import type { Tx } from "../indexer/sql";
import type { ChainState, PoolState } from "../indexer/state";
import { MAX_USD, poolLiquidityUsd, tokenPrice } from "./prices";

const BURN_LIST = BURN_ADDRESSES.map((a) => `'${a}'`).join(", ");

/** The indexed head the time-dependent figures (24 h volume, 1 h holder growth) are taken at. */
export type Head = { number: number; timestamp: number };

/**
 * Rewrites the token_metrics rows of `tokens` (the list read model) and the USD liquidity of
 * their pools, as of `head`: price and liquidity from the pool reserves in `state`, market cap
 * from price and circulating supply, 24 h swap volume from events, holder count and its growth
 * over the past hour (lib/scoring/holder-growth.ts) from holder_count_history. Rows that did not
 * change are not written.
 */
export async function refreshTokenMetrics(tx: Tx, state: ChainState, tokens: string[], head: Head) {
  if (tokens.length === 0) return;
  const prices = tokens.map((t) => tokenPrice(state, t));
  const [{ first }] = await tx.unsafe<{ first: string | null }[]>(`select min(number)::text as first from blocks where timestamp > to_timestamp($1)`, [
    head.timestamp - 86_400,
  ]);
  const minEventId = (first === null ? head.number + 1 : Number(first)) * EVENT_ID_BLOCK_FACTOR;
  // Each token's holder count now and an hour before the head: the last history row at or before each time.
  const holders = await tx.unsafe<{ now: number; before: number }[]>(
    `select coalesce((select h.holder_count from holder_count_history h where h.token_address = i.address
                       order by h.at desc limit 1), 0) as now,
            coalesce((select h.holder_count from holder_count_history h where h.token_address = i.address and h.at <= to_timestamp($2)
                       order by h.at desc limit 1), 0) as before
       from unnest($1::text[]) with ordinality i(address, n) order by i.n`,
    [tokens, head.timestamp - 3_600],
  );
  await tx.unsafe(
    `with input as (
       select * from unnest($1::text[], $2::float8[], $3::float8[], $4::text[], $5::int[], $6::float8[])
                i(address, price_usd, liquidity_usd, priced_pool, holder_count, holder_growth_1h_pct)),
     volume as (
       select e.token_address, sum(e.amount_usd::numeric)::float8 as usd from events e
        where e.type = 'swap' and e.id >= $7 and e.token_address = any($1::text[]) group by e.token_address)
     insert into token_metrics (address, created_at, price_usd, market_cap_usd, liquidity_usd, volume_24h_usd,
                                holder_count, holder_growth_1h_pct, priced_pool, updated_block, updated_at)
     -- Price (at most MAX_USD) times at most 2^256 units stays far inside float8; the product is held to MAX_USD as every USD figure.
     select i.address, t.created_at, i.price_usd, least(greatest(coalesce(nullif(i.price_usd, 0), lt.price, 0) * ((t.total_supply - coalesce(burned.amount, 0)) / power(10::numeric, t.decimals))::float8, -$9::float8), $9::float8),
            i.liquidity_usd, coalesce(v.usd, 0), i.holder_count, i.holder_growth_1h_pct, i.priced_pool, $8, now()
       from input i join tokens t on t.address = i.address
       left join volume v on v.token_address = i.address
       -- Market cap = price x circulating supply (docs/methodology.md): without a pool price, the last trade's price;
       -- supply held at burn addresses is not circulating.
       left join lateral (select e.amount_usd / (e.token_amount / power(10::numeric, t.decimals))::float8 as price from events e
                           where i.price_usd = 0 and e.token_address = i.address and e.type = 'swap' and e.amount_usd > 0 and e.token_amount > 0
                           order by e.id desc limit 1) lt on true
       left join lateral (select sum(x.amount) as amount from balances x
                           where x.token_address = i.address and x.holder in (${BURN_LIST})) burned on true
     on conflict (address) do update set
       price_usd = excluded.price_usd, market_cap_usd = excluded.market_cap_usd, liquidity_usd = excluded.liquidity_usd,
       volume_24h_usd = excluded.volume_24h_usd, holder_count = excluded.holder_count,
       holder_growth_1h_pct = excluded.holder_growth_1h_pct, priced_pool = excluded.priced_pool,
       updated_block = excluded.updated_block, updated_at = excluded.updated_at
     where (token_metrics.price_usd, token_metrics.market_cap_usd, token_metrics.liquidity_usd, token_metrics.volume_24h_usd,
            token_metrics.holder_count, token_metrics.holder_growth_1h_pct, token_metrics.priced_pool)
       is distinct from (excluded.price_usd, excluded.market_cap_usd, excluded.liquidity_usd, excluded.volume_24h_usd,
            excluded.holder_count, excluded.holder_growth_1h_pct, excluded.priced_pool)`,
    [
      tokens,
      prices.map((p) => p.priceUsd),
      prices.map((p) => p.liquidityUsd),
      prices.map((p) => p.pool),
      holders.map((h) => h.now),
      holders.map((h) => holderGrowthPct(h.now, h.before)),
      minEventId,
      head.number,
      MAX_USD,
    ],
  );
}

/** USD liquidity of pools at the current reserves (WETH moves it for every WETH pair). */
export async function refreshPoolLiquidity(tx: Tx, state: ChainState, pools: PoolState[]) {
  if (pools.length === 0) return;
  await tx.unsafe(
    `update pools p set liquidity_usd = v.usd from unnest($1::text[], $2::float8[]) v(address, usd)
      where p.address = v.address and p.liquidity_usd is distinct from v.usd`,
    [pools.map((p) => p.address), pools.map((p) => poolLiquidityUsd(state, p))],
  );
}

/** Mirrors token_scores into the list read model and ranks it for sort=trending (lib/scoring/trending.ts). */
export async function refreshRanking(tx: Tx, tokens: string[]) {
  if (tokens.length === 0) return;
  const inputs = await tx.unsafe<{ address: string; volume24hUsd: number; holderGrowth1hPct: number; riskScore: number }[]>(
    `select m.address, m.volume_24h_usd as "volume24hUsd", m.holder_growth_1h_pct as "holderGrowth1hPct", s.risk_score as "riskScore"
       from token_metrics m join token_scores s on s.address = m.address
      where m.address = any($1::text[])`,
    [tokens],
  );
  if (inputs.length === 0) return;
  await tx.unsafe(
    `update token_metrics m set risk_score = s.risk_score, risk_flags = s.flags, trending_score = v.trending
       from unnest($1::text[], $2::float8[]) v(address, trending) join token_scores s on s.address = v.address
      where m.address = v.address
        and (m.risk_score, m.risk_flags, m.trending_score) is distinct from (s.risk_score, s.flags, v.trending)`,
    [inputs.map((i) => i.address), inputs.map(trendingScore)],
  );
}
