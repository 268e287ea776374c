import { insertSql, names, type Tx, tableName } from "@/db/bulk";
import { recentTraderFlows } from "@/db/schema";
import { WINDOWS } from "@/lib/scoring/weights";
import { firstEventIdAfter, type Head } from "./metrics";

const f = names(recentTraderFlows);

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
    `with fresh as (
       select e.token_address, e.wallet_address as wallet,
              coalesce(sum(e.token_amount) filter (where e.direction = 'buy'), 0) as bought,
              coalesce(sum(e.token_amount) filter (where e.direction = 'sell'), 0) as sold
         from events e
        where e.type = 'swap' and e.id >= $2 and e.token_address = any($1::text[])
        group by e.token_address, e.wallet_address),
     gone as (
       delete from ${tableName(recentTraderFlows)} r
        where r.${f.tokenAddress} = any($1::text[])
          and not exists (select 1
            from fresh x where x.token_address = r.${f.tokenAddress} and x.wallet = r.${f.wallet}))
     ${WRITE_FLOWS}`,
    [tokens, first],
  );
}
