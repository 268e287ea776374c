import { insertSql, names, type Tx, tableName } from "@/db/bulk";
import { events, recentTraderFlows } from "@/db/schema";
import { WINDOWS } from "@/lib/scoring/weights";
import { firstEventIdAfter, type Head } from "./metrics";

const f = names(recentTraderFlows);
const ev = names(events);

/** The window's flows of the tokens $1 from swaps with an id from $2 on, upserted where they changed. */
const WRITE_FLOWS = insertSql(
  recentTraderFlows,
  { tokenAddress: "x.token_address", wallet: "x.wallet", bought: "x.bought", sold: "x.sold" },
  "from fresh x",
  {
    target: ["tokenAddress", "wallet"],
    action: ["bought", "sold"],
    whereChanged: ["bought", "sold"],
  },
);

/**
 * Rewrites the recent_trader_flows rows of `tokens` as of `head`: each trader's swap buys and
 * sells in the net-activity window ending at the head's time. A trader with no swap left in the
 * window loses its row; rows that did not change are not written.
 */
export async function refreshTraderFlows(tx: Tx, tokens: string[], head: Head) {
  if (tokens.length === 0) return;
  const first = await firstEventIdAfter(tx, head.timestamp - WINDOWS.netActivitySeconds, head);
  await tx.unsafe(
    // Each token's window by its own index range, as refreshTokenMetrics reads it.
    `with fresh as (
       select k.token as token_address, x.* from (select distinct unnest($1::text[]) as token) k cross join lateral (
         select e.${ev.walletAddress} as wallet,
                coalesce(sum(e.${ev.tokenAmount}) filter (where e.${ev.direction} = 'buy'), 0) as bought,
                coalesce(sum(e.${ev.tokenAmount}) filter (where e.${ev.direction} = 'sell'), 0) as sold
           from ${tableName(events)} e
          where e.${ev.tokenAddress} = k.token and e.${ev.type} = 'swap' and e.${ev.id} >= $2
          group by e.${ev.walletAddress}) x),
     gone as (
       delete from ${tableName(recentTraderFlows)} r
        where r.${f.tokenAddress} = any($1::text[])
          and not exists (select 1
            from fresh x where x.token_address = r.${f.tokenAddress} and x.wallet = r.${f.wallet}))
     ${WRITE_FLOWS}`,
    [tokens, first],
  );
}
