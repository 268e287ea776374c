import { type SQLWrapper, sql } from "drizzle-orm";
import { z } from "zod";
import { aliasColumns } from "@/db/bulk";
import { type Db, pageWindow } from "@/db/client";
import type { SqlRow } from "@/db/rows";
import { blocks, events, tokenMetrics, tokens, walletLaunchCounts, wallets } from "@/db/schema";
import { statement } from "@/db/statement";
import type { launch, launchList, launchSummary } from "@/lib/api/schemas/wallets";
import { LAUNCH_OUTCOMES, type LaunchOutcome, type RiskFlag } from "@/lib/domain/vocab";
import { indexedTimeSql } from "./clock";
import { cursorAddress, decodeOwnedCursor, encodeCursor } from "./cursor";
import { iso, round } from "./format";
import { runRead } from "./read";

const t = aliasColumns(tokens, "t");
const m = aliasColumns(tokenMetrics, "m");
const e = aliasColumns(events, "e");
const b = aliasColumns(blocks, "b");
const w = aliasColumns(wallets, "w");
const c = aliasColumns(walletLaunchCounts, "c");

/**
 * What became of a launch, from the token's metrics (`m`, token_metrics) at the indexed head, the
 * one rule of docs/methodology.md ("Launch outcomes"): liquidity_pulled when its liquidity_pulled
 * flag is raised; abandoned when, not pulled, it has no liquidity left, or no swap in the 24 h up
 * to the indexed head (txns_24h) while older than those 24 h; trading otherwise. A token the
 * worker has not measured yet (no metrics row) has just launched: trading.
 */
const OUTCOME = sql`case when 'liquidity_pulled' = any(${m.riskFlags}) then 'liquidity_pulled'
           when ${m.liquidityUsd} <= 0
             or (${m.buys24h} + ${m.sells24h} = 0 and ${m.createdAt} <= ${indexedTimeSql} - interval '24 hours')
           then 'abandoned'
           else 'trading' end`;

/** The tokens `wallet` (an SQL expression) created, with their metrics (`m`, none before the worker measured them). */
const launchesOf = (wallet: SQLWrapper) =>
  sql`${tokens} t left join ${tokenMetrics} m on ${m.address} = ${t.address} where ${t.creator} = ${wallet}`;

/** A wallet's launches counted by outcome, as one JSON object (the wallet profile's `launches`). */
export const launchSummarySql = (wallet: SQLWrapper) =>
  sql`(select json_build_object('total', count(*)::int,
                                ${sql.join(
                                  LAUNCH_OUTCOMES.map(
                                    (o) => sql`${o}::text, (count(*) filter (where x.o = ${o}))::int`,
                                  ),
                                  sql`, `,
                                )})
         from (select ${OUTCOME} as o from ${launchesOf(wallet)}) x)`;

export type LaunchSummary = z.infer<typeof launchSummary>;

/** A launch as launchListRead's JSON holds it (a timestamp as text: JSON has none). */
type LaunchRow = SqlRow<typeof tokens, "symbol" | "name" | "launchpad" | "createdBlock" | "createdAt"> &
  SqlRow<typeof tokenMetrics, "priceUsd" | "marketCapUsd" | "liquidityUsd" | "volume24hUsd" | "riskScore"> & {
    token_address: string;
    outcome: LaunchOutcome;
    risk_flags: RiskFlag[];
    last_trade_at: string | null;
  };

/** A launches cursor: the wallet (a cursor walks one wallet's list), the last launch's block and token. */
const launchPosition = z.tuple([cursorAddress, z.number().int().min(0), cursorAddress]);

type LaunchQuery = { page: number; limit: number; cursor?: string };

/** The launch page statement; after a cursor its "after" shape (no offset). */
const launchPageSql = statement<"wallet" | "limit" | "offset" | "block" | "token", "" | "after">((v, shape) => {
  const after =
    shape === "after"
      ? sql`and (${t.createdBlock} < ${v.block} or (${t.createdBlock} = ${v.block} and ${t.address} > ${v.token}))`
      : sql``;
  const window = pageWindow(v.limit, shape === "after" ? undefined : v.offset);
  return sql`select coalesce((select ${c.total} from ${walletLaunchCounts} c where ${c.wallet} = ${w.address}), 0) as total,
                      (select coalesce(json_agg(l order by l.created_block desc, l.token_address), '[]') from (
                         select ${t.address} as token_address, ${t.symbol}, ${t.name}, ${t.launchpad},
                                ${t.createdBlock},
                                ${t.createdAt}, ${OUTCOME} as outcome, coalesce(${m.priceUsd}, 0) as price_usd,
                                coalesce(${m.marketCapUsd}, 0) as market_cap_usd,
                                coalesce(${m.liquidityUsd}, 0) as liquidity_usd,
                                coalesce(${m.volume24hUsd}, 0) as volume_24h_usd,
                                coalesce(${m.riskScore}, 50) as risk_score,
                                coalesce(${m.riskFlags}, '{}') as risk_flags,
                                (select ${b.timestamp}
                                   from ${events} e join ${blocks} b on ${b.number} = ${e.blockNumber}
                                  where ${e.tokenAddress} = ${t.address} and ${e.type} = 'swap'
                                  order by ${e.id} desc limit 1) as last_trade_at
                           from ${launchesOf(w.address)} ${after}
                          order by ${t.createdBlock} desc, ${t.address} ${window}) l) as launches
                 from ${wallets} w
                where ${w.address} = ${v.wallet}`;
});

/**
 * One page of the tokens a wallet created, newest launch first (then by address), each with its
 * outcome and its market now, with the exact number of them and the next page's cursor: null when
 * the wallet is not indexed. The walk follows tokens_creator_idx, so a wallet with thousands of
 * launches reads only the page (and its count from the same index).
 */
export function launchListRead(wallet: string, q: LaunchQuery) {
  const cursor =
    q.cursor === undefined
      ? undefined
      : decodeOwnedCursor(q.cursor, "launches", launchPosition, wallet, "another wallet's launches");
  const page = cursor?.page ?? q.page;
  const [, block = null, token = null] = cursor?.position ?? [];
  return {
    // One launch past the page says whether there is a next one.
    first: launchPageSql(
      { wallet, limit: q.limit + 1, offset: (page - 1) * q.limit, block, token },
      cursor ? "after" : "",
    ),
    answer: (r: { total: number; launches: LaunchRow[] }): z.infer<typeof launchList> => {
      const rows = r.launches.slice(0, q.limit);
      const last = rows.at(-1);
      const next_cursor =
        r.launches.length > q.limit && last
          ? encodeCursor("launches", page + 1, [wallet, last.created_block, last.token_address])
          : null;
      return { data: rows.map(toLaunch), total: r.total, page, limit: q.limit, next_cursor };
    },
  };
}

function toLaunch(r: LaunchRow): z.infer<typeof launch> {
  return {
    token_address: r.token_address,
    token_symbol: r.symbol,
    token_name: r.name,
    launchpad: r.launchpad,
    created_at: iso(new Date(r.created_at)),
    outcome: r.outcome,
    price_usd: r.price_usd,
    market_cap_usd: round(r.market_cap_usd, 2),
    liquidity_usd: round(r.liquidity_usd, 2),
    volume_24h_usd: round(r.volume_24h_usd, 2),
    risk_score: round(r.risk_score, 1),
    risk_flags: r.risk_flags,
    last_trade_at: r.last_trade_at === null ? null : iso(new Date(r.last_trade_at)),
  };
}

export const listLaunches = (db: Db, wallet: string, q: LaunchQuery) => runRead(db, launchListRead(wallet, q));
