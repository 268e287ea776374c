import { sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, pageWindow, queryPrepared } from "@/db/client";
import type { position, positionList } from "@/lib/api/schemas/wallets";
import type { PositionStatus } from "@/lib/domain/vocab";
import { iso, round, toUnits } from "./format";
import {
  byValue,
  holdingValue,
  keptOpenPositions,
  OPEN_POSITIONS_COLUMNS,
  type OpenPositionsRow,
  openPositionsJoin,
  openPositionsOf,
  tokenFacts,
  valuationSnapshot,
} from "./open-positions";
import { runRead } from "./read";
import { snapshotValues } from "./token-list-index";
import { currentDataVersion } from "./tokens";

type PositionRow = {
  token_address: string;
  quantity: string;
  cost_basis_usd: number;
  realized_pnl_usd: number;
  bought_usd: number;
  sold_usd: number;
  buy_count: number;
  sell_count: number;
  unknown_cost_quantity: string;
  liquidity_cost_usd: number;
  first_trade_at: string | null;
  last_trade_at: string | null;
};

type PositionQuery = { status: PositionStatus; page: number; limit: number };

const blockTime = (block: ReturnType<typeof sql>) => sql`(select b.timestamp from blocks b where b.number = ${block})`;

/**
 * A position's fields as the page reads them, from `p` (wallet_positions); the token's symbol and
 * decimals, which never change, are read once (tokenFacts), and its price is the one of the
 * snapshot that ranked the open positions.
 */
const POSITION_FIELDS = sql`p.token_address, p.quantity::text as quantity, p.cost_basis_usd, p.realized_pnl_usd, p.bought_usd, p.sold_usd, p.buy_count, p.sell_count,
  p.unknown_cost_quantity::text as unknown_cost_quantity, p.liquidity_cost_usd,
  ${blockTime(sql`coalesce(p.first_buy_block, p.last_trade_block)`)} as first_trade_at,
  ${blockTime(sql`p.last_trade_block`)} as last_trade_at`;

/**
 * One page of a wallet's positions (wallet_positions: average-cost books per token), open ones
 * first by value, then closed ones by realized PnL (best first, in the order of
 * wallet_positions_closed_idx, so a wallet with thousands reads only the page), with the exact
 * number of them (the counts the triggers keep, db/functions/position-counts.sql): null when the
 * wallet is not indexed. Value and unrealized PnL (value less cost basis) are at the token's
 * price in the token list snapshot of the data version (valuationSnapshot, as the wallet profile
 * values them); tokens of unknown cost (transfers in) count at zero cost.
 */
export function positionListRead(db: Db, wallet: string, q: PositionQuery) {
  const kept = keptOpenPositions(db, wallet);
  return {
    // The counts, and the open positions to rank when the page may hold some and they changed since kept, in one round trip.
    first: sql`select coalesce(c.total, 0) as total, coalesce(c.open, 0) as open, ${OPEN_POSITIONS_COLUMNS}
                 from wallets w left join wallet_position_counts c on c.wallet = w.address
                 ${openPositionsJoin(sql`w.address`, kept, q.status !== "closed")}
                where w.address = ${wallet}`,
    answer: (counts: { total: number; open: number } & OpenPositionsRow, dataVersion?: number) => positionPage(db, wallet, q, kept, counts, dataVersion),
  };
}

export const listPositions = (db: Db, wallet: string, q: PositionQuery) => runRead(db, positionListRead(db, wallet, q));

/** The page of the wallet's positions, from its counts and open positions. */
async function positionPage(
  db: Db,
  wallet: string,
  q: PositionQuery,
  kept: ReturnType<typeof keptOpenPositions>,
  counts: { total: number; open: number } & OpenPositionsRow,
  dataVersion: number | undefined,
): Promise<z.infer<typeof positionList>> {
  const offset = (q.page - 1) * q.limit;
  const snapshot = await valuationSnapshot(db, dataVersion ?? (await currentDataVersion(db)));
  const total = q.status === "open" ? counts.open : q.status === "closed" ? counts.total - counts.open : counts.total;
  let openPage: string[] = [];
  if (q.status !== "closed" && offset < counts.open) {
    const open = openPositionsOf(db, wallet, kept, counts);
    openPage = (await byValue(db, snapshot, open)).slice(offset, offset + q.limit);
  }
  const closedOffset = q.status === "closed" ? offset : Math.max(0, offset - counts.open);
  const closedLimit = q.status === "open" ? 0 : q.limit - openPage.length;
  const rows = await queryPrepared<PositionRow & { k: number }>(
    db,
    sql`select ${POSITION_FIELDS}, 0 as k
          from wallet_positions p
         where p.wallet = ${wallet} and p.token_address = any(${sql.param(openPage)})
        union all
        select * from (
          select ${POSITION_FIELDS}, (row_number() over (order by p.realized_pnl_usd desc, p.token_address))::int as k
            from wallet_positions p
           where p.wallet = ${wallet} and p.quantity <= 0
           order by p.realized_pnl_usd desc, p.token_address ${pageWindow(closedLimit, closedOffset)}) closed`,
  );
  const rank = new Map(openPage.map((t, i) => [t, i]));
  // Open ones in value order (a position closed since it was ranked drops out), then the closed ones in the statement's order.
  const positions = [
    ...rows.filter((r) => r.k === 0 && BigInt(r.quantity) > 0n).sort((a, b) => rank.get(a.token_address)! - rank.get(b.token_address)!),
    ...rows.filter((r) => r.k > 0).sort((a, b) => a.k - b.k),
  ];
  const tokens = positions.map((p) => p.token_address);
  const [facts, prices] = await Promise.all([tokenFacts(db, tokens), snapshotValues(db, snapshot, "priceUsd", tokens)]);
  // A token gone since (a reorg) drops out, as its position does.
  const data = positions.flatMap((p, i): z.infer<typeof position>[] => {
    const token = facts[i];
    if (!token) return [];
    // By the rule the wallet profile values its holdings with: the positions' pnl_usd add up to its pnl_estimate_usd.
    const quantity = toUnits(p.quantity, token.decimals);
    const value = holdingValue(quantity, prices[i]);
    const unrealized = value - p.cost_basis_usd;
    return [
      {
        token_address: p.token_address,
        token_symbol: token.symbol,
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
        unknown_cost_quantity: toUnits(p.unknown_cost_quantity, token.decimals),
        liquidity_cost_usd: round(p.liquidity_cost_usd, 2),
        first_trade_at: p.first_trade_at === null ? null : iso(new Date(p.first_trade_at)),
        last_trade_at: p.last_trade_at === null ? null : iso(new Date(p.last_trade_at)),
      },
    ];
  });
  return { data, total, page: q.page, limit: q.limit };
}
