import { EVENT_ID_BLOCK_FACTOR } from "@/lib/domain/vocab";
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
 * over the past hour from holder_count_history. Rows that did not change are not written.
 */
export async function refreshTokenMetrics(tx: Tx, state: ChainState, tokens: string[], head: Head) {
  if (tokens.length === 0) return;
  const prices = tokens.map((t) => tokenPrice(state, t));
  const [{ first }] = await tx.unsafe<{ first: string | null }[]>(`select min(number)::text as first from blocks where timestamp > to_timestamp($1)`, [
    head.timestamp - 86_400,
  ]);
  const minEventId = (first === null ? head.number + 1 : Number(first)) * EVENT_ID_BLOCK_FACTOR;
  await tx.unsafe(
    `with input as (
       select * from unnest($1::text[], $2::float8[], $3::float8[], $4::text[]) i(address, price_usd, liquidity_usd, priced_pool)),
     volume as (
       select e.token_address, sum(e.amount_usd::numeric)::float8 as usd from events e
        where e.type = 'swap' and e.id >= $5 and e.token_address = any($1::text[]) group by e.token_address),
     holders_now as (
       select distinct on (token_address) token_address, holder_count from holder_count_history
        where token_address = any($1::text[]) order by token_address, at desc),
     holders_before as (
       select distinct on (token_address) token_address, holder_count from holder_count_history
        where token_address = any($1::text[]) and at <= to_timestamp($6) order by token_address, at desc)
     insert into token_metrics (address, created_at, price_usd, market_cap_usd, liquidity_usd, volume24h_usd,
                                holder_count, holder_growth1h_pct, priced_pool, updated_block, updated_at)
     -- Price (at most MAX_USD) times at most 2^256 units stays far inside float8; the product is held to MAX_USD as every USD figure.
     select i.address, t.created_at, i.price_usd, least(greatest(coalesce(nullif(i.price_usd, 0), lt.price, 0) * ((t.total_supply - coalesce(burned.amount, 0)) / power(10::numeric, t.decimals))::float8, -$8::float8), $8::float8),
            i.liquidity_usd, coalesce(v.usd, 0), coalesce(n.holder_count, 0),
            -- A token younger than an hour grows from nothing: counted against one holder.
            (coalesce(n.holder_count, 0) - coalesce(b.holder_count, 0)) * 100.0 / greatest(coalesce(b.holder_count, 0), 1),
            i.priced_pool, $7, now()
       from input i join tokens t on t.address = i.address
       left join volume v on v.token_address = i.address
       left join holders_now n on n.token_address = i.address
       left join holders_before b on b.token_address = i.address
       -- Market cap = price x circulating supply (docs/methodology.md): without a pool price, the last trade's price;
       -- supply held at burn addresses is not circulating.
       left join lateral (select e.amount_usd / (e.token_amount / power(10::numeric, t.decimals))::float8 as price from events e
                           where i.price_usd = 0 and e.token_address = i.address and e.type = 'swap' and e.amount_usd > 0 and e.token_amount > 0
                           order by e.id desc limit 1) lt on true
       left join lateral (select sum(x.amount) as amount from balances x
                           where x.token_address = i.address and x.holder in (${BURN_LIST})) burned on true
     on conflict (address) do update set
       price_usd = excluded.price_usd, market_cap_usd = excluded.market_cap_usd, liquidity_usd = excluded.liquidity_usd,
       volume24h_usd = excluded.volume24h_usd, holder_count = excluded.holder_count,
       holder_growth1h_pct = excluded.holder_growth1h_pct, priced_pool = excluded.priced_pool,
       updated_block = excluded.updated_block, updated_at = excluded.updated_at
     where (token_metrics.price_usd, token_metrics.market_cap_usd, token_metrics.liquidity_usd, token_metrics.volume24h_usd,
            token_metrics.holder_count, token_metrics.holder_growth1h_pct, token_metrics.priced_pool)
       is distinct from (excluded.price_usd, excluded.market_cap_usd, excluded.liquidity_usd, excluded.volume24h_usd,
            excluded.holder_count, excluded.holder_growth1h_pct, excluded.priced_pool)`,
    [
      tokens,
      prices.map((p) => p.priceUsd),
      prices.map((p) => p.liquidityUsd),
      prices.map((p) => p.pool),
      minEventId,
      head.timestamp - 3_600,
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

/**
 * Mirrors token_scores into the list read model and ranks it for sort=trending: 24 h volume
 * (log-damped) boosted by holder growth (capped at +500 %), scaled down by risk.
 */
export async function refreshRanking(tx: Tx, tokens: string[]) {
  if (tokens.length === 0) return;
  await tx.unsafe(
    `update token_metrics m set risk_score = v.risk_score, risk_flags = v.flags, trending_score = v.trending
       from (select m.address, s.risk_score, s.flags,
                    ln(1 + m.volume24h_usd) * (1 + least(greatest(m.holder_growth1h_pct, 0), 500) / 100) * (1 - s.risk_score / 100) as trending
               from token_metrics m join token_scores s on s.address = m.address
              where m.address = any($1::text[])) v
      where m.address = v.address
        and (m.risk_score, m.risk_flags, m.trending_score) is distinct from (v.risk_score, v.flags, v.trending)`,
    [tokens],
  );
}
