import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { isRealHolderSql } from "@/lib/tokens/holders";
import { netActivity } from "@/lib/scoring/net-activity";
import { percentOf, round } from "./format";

const TOP_HOLDERS = 10;

type HolderRow = {
  holder: string;
  amount: string;
  classification: string | null;
  reputation_score: number | null;
  cluster_id: string | null;
  is_contract: number | null;
  buy_count: number | null;
  sell_count: number | null;
  bought_usd: number | null;
  sold_usd: number | null;
  quantity: string | null;
};

/** The largest real holders of a token with their wallet intelligence. */
export async function topHolders(db: Db, token: string, totalSupply: string) {
  const rows = await db.execute<HolderRow>(sql`
    select b.holder, b.amount::text as amount, coalesce(ws.classification, w.classification) as classification,
           ws.reputation_score, w.cluster_id, w.is_contract,
           p.buy_count, p.sell_count, p.bought_usd, p.sold_usd, p.quantity::text as quantity
      from balances b
      left join wallets w on w.address = b.holder
      left join wallet_scores ws on ws.address = b.holder
      left join wallet_positions p on p.wallet = b.holder and p.token_address = b.token_address
     where b.token_address = ${token} and b.amount > 0
       and ${isRealHolderSql(sql`b.holder`, sql`${token}`)}
     order by b.amount desc, b.holder
     limit ${TOP_HOLDERS}`);
  return rows.map((r) => ({
    address: r.holder,
    holding_pct: round(percentOf(r.amount, totalSupply), 4),
    classification: r.classification ?? "fresh",
    reputation_score: round(r.reputation_score ?? 0, 1),
    net_activity: netActivity({
      quantity: r.quantity ?? r.amount,
      buyCount: r.buy_count ?? 0,
      sellCount: r.sell_count ?? 0,
      boughtUsd: r.bought_usd ?? 0,
      soldUsd: r.sold_usd ?? 0,
    }),
    tags: [...(r.is_contract ? ["contract"] : []), ...(r.cluster_id ? [`cluster:${r.cluster_id}`] : [])],
  }));
}
