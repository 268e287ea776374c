import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { aliasColumns } from "@/db/bulk";
import { pageWindow } from "@/db/client";
import {
  balances,
  holderCountHistory,
  recentTraderFlows,
  tokenMetrics,
  tokens,
  walletScores,
  wallets,
} from "@/db/schema";
import { statement } from "@/db/statement";
import type { holder } from "@/lib/api/schemas/tokens";
import type { Classification } from "@/lib/domain/vocab";
import { isManagedCluster } from "@/lib/scoring/entities";
import { netActivity } from "@/lib/scoring/net-activity";
import { NO_EVIDENCE_REPUTATION } from "@/lib/scoring/no-evidence";
import { CLUSTERS } from "@/lib/scoring/weights";
import { isRealHolderSql } from "@/lib/tokens/holders";
import { cursorAddress, decodeOwnedCursor, encodeCursor } from "./cursor";
import { percentOf, round, toUnits } from "./format";

const TOP_HOLDERS = 10;

const b = aliasColumns(balances, "b");
const f = aliasColumns(recentTraderFlows, "f");
const w = aliasColumns(wallets, "w");
const ws = aliasColumns(walletScores, "ws");
const k = aliasColumns(wallets, "k");
const t = aliasColumns(tokens, "t");
const m = aliasColumns(tokenMetrics, "m");
const h = aliasColumns(holderCountHistory, "h");

/** The columns topHoldersSql returns. */
export type HolderRow = {
  holder: string;
  amount: string;
  classification: Classification | null;
  reputation_score: number | null;
  cluster_id: string | null;
  /** The wallets of the holder's cluster, counted up to one past the largest a managed cluster may have. */
  cluster_size: number | null;
  /** Those of them that hold the token. */
  cluster_holders: number | null;
  is_contract: number | null;
  bought: string | null;
  sold: string | null;
};

/**
 * A page of holders: its size and offset, or the holder it follows (a cursor's, with offset 0); values,
 * or a statement's placeholders for them.
 */
type HolderWindow = {
  limit: number | SQL;
  offset: number | SQL;
  after?: { amount: string | SQL; holder: string | SQL };
};

/**
 * A page of a token's real holders, largest first, with their wallet intelligence and recent
 * direction, as a subquery over a token address expression, so the profile reads its top
 * holders in the same statement as the token's own row. The recent flows are the worker's, as of
 * the token's last refresh (recent_trader_flows): one key per holder.
 */
export function holdersSql(token: SQL, page: HolderWindow = { limit: TOP_HOLDERS, offset: 0 }): SQL {
  // After a cursor's holder: a smaller amount, or the same one and a later address (the order's tie-break). The
  // bound on the amount alone starts the index scan there.
  const amount = page.after && sql`${page.after.amount}::numeric`;
  const after = page.after
    ? sql`and ${b.amount} <= ${amount} and (${b.amount} < ${amount} or ${b.holder} > ${page.after.holder})`
    : sql``;
  return sql`
    with top as (
      select ${b.holder}, ${b.amount} from ${balances} b
       where ${b.tokenAddress} = ${token} and ${b.amount} > 0 ${after}
         and ${isRealHolderSql(sql`${b.holder}`, token)}
       order by ${b.amount} desc, ${b.holder}
       ${pageWindow(page.limit, page.offset)}
    )
    select top.holder, top.amount::text as amount,
           coalesce(${ws.classification}, ${w.classification}) as classification,
           ${ws.reputationScore}, ${w.clusterId}, c.size as cluster_size, c.holders as cluster_holders, ${w.isContract},
           ${f.bought}::text as bought, ${f.sold}::text as sold
      from top
      left join ${recentTraderFlows} f on ${f.tokenAddress} = ${token} and ${f.wallet} = top.holder
      left join ${wallets} w on ${w.address} = top.holder
      left join ${walletScores} ws on ${ws.address} = top.holder
      -- A hub's thousands of wallets are not read: one past the managed size already says it is none.
      left join lateral (
        select count(*)::int as size, count(${b.holder})::int as holders
          from (select ${k.address} from ${wallets} k
                 where ${k.clusterId} = ${w.clusterId} limit ${CLUSTERS.maxManagedSize + 1}) k
          left join ${balances} b on ${b.tokenAddress} = ${token} and ${b.holder} = ${k.address} and ${b.amount} > 0
      ) c on ${w.clusterId} is not null`;
}

/**
 * The holder's tags: "contract", and "cluster:<funder>" only for a managed funding cluster on this
 * token, the one owner the scores count (isManagedCluster, with its wallets holding the token as
 * those on it): a hub that paid thousands of unrelated wallets is no cluster, as the sybil rule has it.
 */
function holderTags(r: HolderRow): string[] {
  const cluster =
    r.cluster_id && isManagedCluster(r.cluster_size ?? 0, r.cluster_holders ?? 0) ? [`cluster:${r.cluster_id}`] : [];
  return [...(r.is_contract ? ["contract"] : []), ...cluster];
}

export function toHolder(r: HolderRow, token: { total_supply: string; decimals: number }): z.infer<typeof holder> {
  return {
    address: r.holder,
    holding_pct: round(percentOf(r.amount, token.total_supply), 4),
    classification: r.classification ?? "fresh",
    reputation_score: round(r.reputation_score ?? NO_EVIDENCE_REPUTATION, 1),
    net_activity: netActivity({
      balance: toUnits(r.amount, token.decimals),
      recentBought: toUnits(r.bought ?? "0", token.decimals),
      recentSold: toUnits(r.sold ?? "0", token.decimals),
    }),
    tags: holderTags(r),
  };
}

type HolderPageRow = { total_supply: string; decimals: number; price_usd: number; total: number; holders: HolderRow[] };

/** A holder list cursor: the token (a cursor walks one token's list), the last holder's raw amount and address. */
const holderPosition = z.tuple([cursorAddress, z.string().regex(/^[0-9]{1,78}$/), cursorAddress]);

/** The holder page statement; after a cursor its "after" shape. */
const holderPageSql = statement<"token" | "limit" | "offset" | "amount" | "holder", "" | "after">(
  (
    v,
    shape,
  ) => sql`select ${t.totalSupply}::text as total_supply, ${t.decimals}, coalesce(${m.priceUsd}, 0) as price_usd,
                      coalesce((select ${h.holderCount} from ${holderCountHistory} h
                                 where ${h.tokenAddress} = ${t.address} order by ${h.at} desc limit 1), 0) as total,
                      (select coalesce(json_agg(h order by h.amount::numeric desc, h.holder), '[]')
                         from (${holdersSql(sql`${t.address}`, {
                           limit: v.limit,
                           offset: v.offset,
                           after: shape === "after" ? { amount: v.amount, holder: v.holder } : undefined,
                         })}) h) as holders
                 from ${tokens} t left join ${tokenMetrics} m on ${m.address} = ${t.address}
                where ${t.address} = ${v.token}`,
);

/**
 * One page of a token's real holders, largest first (from its page number, or after a cursor's
 * holder), with the exact number of them and the next page's cursor: null when the token is not
 * indexed. The number is the count the worker keeps with the balances, in the same commit and by
 * the same rule (worker/derive/balances.ts), so a busy token's total is one index probe rather
 * than a pass over all its holders. Each holder adds its quantity and its value at the token's price.
 */
export const holderListRead = (token: string, q: { page: number; limit: number; cursor?: string }) => {
  const cursor =
    q.cursor === undefined
      ? undefined
      : decodeOwnedCursor(q.cursor, "holders", holderPosition, token, "another token's holders");
  const page = cursor?.page ?? q.page;
  const [, amount = null, holder = null] = cursor?.position ?? [];
  return {
    // One holder past the page says whether there is a next one.
    first: holderPageSql(
      { token, limit: q.limit + 1, offset: cursor ? 0 : (page - 1) * q.limit, amount, holder },
      cursor ? "after" : "",
    ),
    answer: (t: HolderPageRow) => {
      const rows = t.holders.slice(0, q.limit);
      const data = rows.map((h) => {
        const quantity = toUnits(h.amount, t.decimals);
        return { ...toHolder(h, t), quantity, value_usd: round(quantity * t.price_usd, 2) };
      });
      const last = rows.at(-1);
      const next_cursor =
        t.holders.length > q.limit && last
          ? encodeCursor("holders", page + 1, [token, last.amount, last.holder])
          : null;
      return { data, total: t.total, page, limit: q.limit, next_cursor };
    },
  };
};
