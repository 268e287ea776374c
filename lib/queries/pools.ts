import { sql } from "drizzle-orm";
import type { z } from "zod";
import { aliasColumns } from "@/db/bulk";
import { type Db, pageWindow } from "@/db/client";
import type { SqlRow } from "@/db/rows";
import { chainContracts, pools, tokenMetrics, tokens } from "@/db/schema";
import { statement } from "@/db/statement";
import type { pool, poolList } from "@/lib/api/schemas/market";
import { round } from "./format";
import { runRead } from "./read";

/** A pool as poolListRead's JSON holds it. */
type PoolRow = SqlRow<
  typeof pools,
  "address" | "dex" | "fee" | "liquidityUsd" | "priceUsd" | "volume24hUsd" | "swaps24h"
> & {
  protocol: keyof typeof PROTOCOLS;
  pair_address: string;
  pair_symbol: string | null;
  price_source: boolean;
};

const p = aliasColumns(pools, "p");
const t = aliasColumns(tokens, "t");
const m = aliasColumns(tokenMetrics, "m");
const pt = aliasColumns(tokens, "pt");
const q = aliasColumns(chainContracts, "q");

/** The pools table's protocol names (the indexer's) as the API spells them. */
const PROTOCOLS = { "uniswap-v2": "uniswap_v2", "uniswap-v3": "uniswap_v3" } as const satisfies Record<
  string,
  z.infer<typeof pool>["protocol"]
>;

/** A Uniswap V2 pair's fee: 0.3% of each swap, fixed by its code. */
const V2_FEE_PCT = 0.3;

/** A pool's fee tier in percent: a V3 pool's fee is in hundredths of a basis point. */
const feePct = (p: Pick<PoolRow, "protocol" | "fee">) =>
  p.protocol === "uniswap-v3" && p.fee !== null ? p.fee / 10_000 : V2_FEE_PCT;

const poolPageSql = statement<"token" | "limit" | "offset">(
  (v) => sql`select
                    (select count(*)::int from ${pools} p
                      where ${p.token0} = ${t.address} or ${p.token1} = ${t.address}) as total,
                    (select coalesce(json_agg(x order by x.liquidity_usd desc, x.address), '[]') from (
                       select ${p.address}, ${p.dex}, ${p.protocol}, ${p.fee}, pair.address as pair_address,
                              coalesce(${pt.symbol}, ${q.name}) as pair_symbol,
                              ${p.liquidityUsd}, ${p.priceUsd}, ${p.volume24hUsd}, ${p.swaps24h},
                              ${p.address} is not distinct from ${m.pricedPool} as price_source
                         from ${pools} p
                         cross join lateral (select case when ${p.token0} = ${t.address} then ${p.token1}
                                                         else ${p.token0} end as address) pair
                         left join ${tokens} pt on ${pt.address} = pair.address
                         left join ${chainContracts} q on ${q.address} = pair.address and ${q.role} = 'quote_token'
                        where ${p.token0} = ${t.address} or ${p.token1} = ${t.address}
                        order by ${p.liquidityUsd} desc, ${p.address}
                        ${pageWindow(v.limit, v.offset)}) x) as pools
               from ${tokens} t left join ${tokenMetrics} m on ${m.address} = ${t.address}
              where ${t.address} = ${v.token}`,
);

/**
 * One page of the pools that trade a token, deepest first, with the exact number of them: null
 * when the token is not indexed. A pool's price is the worker's (worker/derive/prices.ts,
 * poolPriceUsd): the pool's current marginal price in USD, null for a pool without a whitelisted
 * quote. The pair token's symbol is its own, or a quote token's from the chain profile. Volume
 * and swaps are the worker's too (worker/derive/metrics.ts): the 24 h up to its last refresh of the token.
 */
export const poolListRead = (token: string, page: { page: number; limit: number }) => ({
  first: poolPageSql({ token, limit: page.limit, offset: (page.page - 1) * page.limit }),
  answer: (t: { total: number; pools: PoolRow[] }): z.infer<typeof poolList> => {
    const data = t.pools.map(
      (p): z.infer<typeof pool> => ({
        address: p.address,
        protocol: PROTOCOLS[p.protocol],
        dex: p.dex,
        fee_pct: feePct(p),
        pair_token_address: p.pair_address,
        pair_token_symbol: p.pair_symbol,
        liquidity_usd: round(p.liquidity_usd, 2),
        price_usd: p.price_usd,
        volume_24h_usd: round(p.volume_24h_usd, 2),
        swaps_24h: p.swaps_24h,
        is_price_source: p.price_source,
      }),
    );
    return { data, total: t.total, page: page.page, limit: page.limit };
  },
});

export const listPools = (db: Db, token: string, page: { page: number; limit: number }) =>
  runRead(db, poolListRead(token, page));
