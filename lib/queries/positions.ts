import { sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, queryPrepared } from "@/db/client";
import type { position, positionList } from "@/lib/api/schemas/wallets";
import type { PositionStatus } from "@/lib/domain/vocab";
import { iso, round, toUnits } from "./format";

type PositionRow = {
  token_address: string;
  symbol: string;
  decimals: number;
  quantity: string;
  price_usd: number;
  cost_basis_usd: number;
  realized_pnl_usd: number;
  bought_usd: number;
  sold_usd: number;
  buy_count: number;
  sell_count: number;
  unknown_cost_quantity: string;
  first_trade_at: string | null;
  last_trade_at: string | null;
};

const blockTime = (block: ReturnType<typeof sql>) => sql`(select b.timestamp from blocks b where b.number = ${block})`;

/** A position's fields as the page reads them, from `p` (wallet_positions), `t` (tokens) and `m` (token_metrics). */
const POSITION_FIELDS = sql`p.token_address, t.symbol, t.decimals, p.quantity::text as quantity, coalesce(m.price_usd, 0) as price_usd,
  p.cost_basis_usd, p.realized_pnl_usd, p.bought_usd, p.sold_usd, p.buy_count, p.sell_count,
  p.unknown_cost_quantity::text as unknown_cost_quantity,
  ${blockTime(sql`coalesce(p.first_buy_block, p.last_trade_block)`)} as first_trade_at,
  ${blockTime(sql`p.last_trade_block`)} as last_trade_at`;

/**
 * The open positions (value at the token's price, highest first) and the closed ones (realized
 * PnL, best first), each its first `rows` in that order: the page is cut from both. Closed ones
 * come in order from wallet_positions_closed_idx, so a wallet with thousands reads only the page.
 */
function arms(status: PositionStatus, rows: number) {
  const open = sql`(select ${POSITION_FIELDS}, true as open,
                           (p.quantity / power(10::numeric, t.decimals))::float8 * coalesce(m.price_usd, 0) as rank
                      from wallet_positions p join tokens t on t.address = p.token_address
                      left join token_metrics m on m.address = p.token_address
                     where p.wallet = w.address and p.quantity > 0
                     order by rank desc, p.token_address limit ${rows})`;
  const closed = sql`(select ${POSITION_FIELDS}, false as open, p.realized_pnl_usd as rank
                        from wallet_positions p join tokens t on t.address = p.token_address
                        left join token_metrics m on m.address = p.token_address
                       where p.wallet = w.address and p.quantity <= 0
                       order by p.realized_pnl_usd desc, p.token_address limit ${rows})`;
  return status === "open" ? open : status === "closed" ? closed : sql`${open} union all ${closed}`;
}

const totalOf = (status: PositionStatus) => (status === "open" ? sql`c.open` : status === "closed" ? sql`c.total - c.open` : sql`c.total`);

/**
 * One page of a wallet's positions (wallet_positions: average-cost books per token), open ones
 * first by value, then closed ones by realized PnL, with the exact number of them (the count the
 * triggers keep, db/functions/position-counts.sql): null when the wallet is not indexed. Value
 * and unrealized PnL (value less cost basis) are at the token's current price; tokens of unknown
 * cost (transfers in) count at zero cost.
 */
export async function listPositions(
  db: Db,
  wallet: string,
  q: { status: PositionStatus; page: number; limit: number },
): Promise<z.infer<typeof positionList> | null> {
  const offset = (q.page - 1) * q.limit;
  const [w] = await queryPrepared<{ total: number; positions: PositionRow[] }>(
    db,
    sql`select coalesce((select ${totalOf(q.status)} from wallet_position_counts c where c.wallet = w.address), 0) as total,
               (select coalesce(json_agg(x order by x.open desc, x.rank desc, x.token_address), '[]') from (
                  select * from (${arms(q.status, offset + q.limit)}) a
                   order by a.open desc, a.rank desc, a.token_address
                   limit ${q.limit} offset ${offset}) x) as positions
          from wallets w
         where w.address = ${wallet}`,
  );
  if (!w) return null;
  const data = w.positions.map((p): z.infer<typeof position> => {
    // As the wallet's pnl_estimate_usd has it (worker/derive/wallets.ts), so the positions' pnl_usd add up to it.
    const quantity = toUnits(p.quantity, p.decimals);
    const value = quantity * p.price_usd;
    const unrealized = value - p.cost_basis_usd;
    return {
      token_address: p.token_address,
      token_symbol: p.symbol,
      status: quantity > 0 ? "open" : "closed",
      quantity,
      value_usd: round(value, 2),
      cost_basis_usd: round(p.cost_basis_usd, 2),
      realized_pnl_usd: round(p.realized_pnl_usd, 2),
      unrealized_pnl_usd: round(unrealized, 2),
      pnl_usd: round(p.realized_pnl_usd + unrealized, 2),
      bought_usd: round(p.bought_usd, 2),
      sold_usd: round(p.sold_usd, 2),
      buy_count: p.buy_count,
      sell_count: p.sell_count,
      unknown_cost_quantity: toUnits(p.unknown_cost_quantity, p.decimals),
      first_trade_at: p.first_trade_at === null ? null : iso(new Date(p.first_trade_at)),
      last_trade_at: p.last_trade_at === null ? null : iso(new Date(p.last_trade_at)),
    };
  });
  return { data, total: w.total, page: q.page, limit: q.limit };
}
