import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { aliasColumns } from "@/db/bulk";
import type { SqlRow } from "@/db/rows";
import { balances, type tokens, walletPositions } from "@/db/schema";
import type { creatorHolding, tokenCreator } from "@/lib/api/schemas/tokens";
import type { CreatorSales } from "@/lib/domain/vocab";
import { percentOf, round, toUnits } from "./format";

/** A token's creator columns, as tokens holds them. */
export type CreatorColumns = SqlRow<typeof tokens, "creator" | "origin" | "launchpad">;

/**
 * Who made the token, as the indexer learnt it: the wallet its launchpad's launch event names, or
 * no one, with the reason, when the token came through a factory's pool or its event names none.
 */
export function toTokenCreator(r: CreatorColumns): z.infer<typeof tokenCreator> {
  return {
    address: r.creator,
    via: { kind: r.origin, name: r.launchpad },
    unknown_reason: r.creator ? null : r.origin === "factory" ? "found_through_pool" : "launch_event_names_none",
  };
}

const b = aliasColumns(balances, "b");
const p = aliasColumns(walletPositions, "p");

/** The creator's balance of the token and its book there, as JSON; null when the creator is unknown. */
export const creatorHoldingSql = (token: SQL, creator: SQL) =>
  sql`(select json_build_object('amount', coalesce(${b.amount}, 0)::text, 'buy_count', coalesce(${p.buyCount}, 0),
                                'sell_count', coalesce(${p.sellCount}, 0), 'sold_usd', coalesce(${p.soldUsd}, 0))
         from (select 1) one
         left join ${balances} b on ${b.tokenAddress} = ${token} and ${b.holder} = ${creator}
         left join ${walletPositions} p on ${p.wallet} = ${creator} and ${p.tokenAddress} = ${token}
        where ${creator} is not null)`;

export type CreatorHoldingRow = { amount: string; buy_count: number; sell_count: number; sold_usd: number };

/**
 * Whether the creator sold, from its sells and its balance: any sell makes it sold_all when it
 * holds none now and sold_some otherwise; without one, buys make it bought_more. Tokens it moved
 * away by transfer are no sale (the holding shows them gone).
 */
export function creatorSold(r: { balance: bigint; buys: number; sells: number }): CreatorSales {
  if (r.sells > 0) return r.balance > 0n ? "sold_some" : "sold_all";
  return r.buys > 0 ? "bought_more" : "not_sold";
}

export function toCreatorHolding(
  r: CreatorHoldingRow,
  token: { total_supply: string; decimals: number; price_usd: number },
): z.infer<typeof creatorHolding> {
  const quantity = toUnits(r.amount, token.decimals);
  return {
    quantity,
    holding_pct: round(percentOf(r.amount, token.total_supply), 4),
    value_usd: round(quantity * token.price_usd, 2),
    sold: creatorSold({ balance: BigInt(r.amount), buys: r.buy_count, sells: r.sell_count }),
    buy_count: r.buy_count,
    sell_count: r.sell_count,
    sold_usd: round(r.sold_usd, 2),
  };
}
