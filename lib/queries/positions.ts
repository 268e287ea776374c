import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { aliasColumns } from "@/db/bulk";
import { type Db, pageWindow, queryPrepared } from "@/db/client";
import type { SqlRow } from "@/db/rows";
import { blocks, walletPositions, wallets } from "@/db/schema";
import { statement } from "@/db/statement";
import type { position, positionList } from "@/lib/api/schemas/wallets";
import type { PositionStatus } from "@/lib/domain/vocab";
import { cursorAddress, cursorNumber, decodeOwnedCursor, encodeCursor } from "./cursor";
import { iso, round, toUnits } from "./format";
import {
  byValue,
  holdingValue,
  keptMark,
  keptOpenPositions,
  OPEN_POSITIONS_COLUMNS,
  type OpenPositionsRow,
  openPositionsJoin,
  openPositionsOf,
  positionCounts,
  type Ranked,
  tokenFacts,
  valuationSnapshot,
} from "./open-positions";
import { runRead } from "./read";
import { snapshotValues, walkedSnapshot } from "./token-list-index";
import { currentDataVersion } from "./tokens";

/** The columns of POSITION_FIELDS. */
type PositionRow = SqlRow<
  typeof walletPositions,
  | "tokenAddress"
  | "quantity"
  | "costBasisUsd"
  | "realizedPnlUsd"
  | "boughtUsd"
  | "soldUsd"
  | "buyCount"
  | "sellCount"
  | "unknownCostQuantity"
  | "liquidityCostUsd"
> & { first_trade_at: string | null; last_trade_at: string | null };

type PositionQuery = { status: PositionStatus; page: number; limit: number; cursor?: string };

/**
 * A positions cursor: the wallet, the data version whose prices ranked the walk's open positions,
 * and the last position listed: open (0, its value) or closed (1, its realized PnL), and its token.
 */
const positionsCursor = z.tuple([
  cursorAddress,
  z.number().int().min(0),
  z.union([z.literal(0), z.literal(1)]),
  cursorNumber,
  cursorAddress,
]);
type PositionsWalk = { version: number; closed: boolean; key: number; token: string };

function decodePositionsCursor(wallet: string, q: PositionQuery): { page: number; walk?: PositionsWalk } {
  if (q.cursor === undefined) return { page: q.page };
  const { page, position } = decodeOwnedCursor(
    q.cursor,
    `positions:${q.status}`,
    positionsCursor,
    wallet,
    "another wallet's positions",
  );
  const [, version, phase, key, token] = position;
  return { page, walk: { version, closed: phase === 1, key: key ?? 0, token } };
}

const w = aliasColumns(wallets, "w");
const p = aliasColumns(walletPositions, "p");
const b = aliasColumns(blocks, "b");
const c = positionCounts;

const blockTime = (block: SQL) => sql`(select ${b.timestamp} from ${blocks} b where ${b.number} = ${block})`;

/**
 * A position's fields as the page reads them, from `p` (wallet_positions); the token's symbol and
 * decimals, which never change, are read once (tokenFacts), and its price is the one of the
 * snapshot that ranked the open positions.
 */
const POSITION_FIELDS = sql`${p.tokenAddress}, ${p.quantity}::text as quantity, ${p.costBasisUsd}, ${p.realizedPnlUsd},
  ${p.boughtUsd}, ${p.soldUsd}, ${p.buyCount}, ${p.sellCount},
  ${p.unknownCostQuantity}::text as unknown_cost_quantity, ${p.liquidityCostUsd},
  ${blockTime(sql`coalesce(${p.firstBuyBlock}, ${p.lastTradeBlock})`)} as first_trade_at,
  ${blockTime(sql`${p.lastTradeBlock}`)} as last_trade_at`;

const positionCountsSql = statement<"wallet" | "keptMark" | "wanted">(
  (v) => sql`select coalesce(${c.total}, 0) as total, coalesce(${c.open}, 0) as open, ${OPEN_POSITIONS_COLUMNS}
               from ${wallets} w ${openPositionsJoin(w.address, v.keptMark, v.wanted)}
              where ${w.address} = ${v.wallet}`,
);

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
    // The counts, and the open positions to rank when the page may hold some and they changed since kept, in one round
    // trip.
    first: positionCountsSql({ wallet, keptMark: keptMark(kept), wanted: q.status !== "closed" }),
    answer: (counts: { total: number; open: number } & OpenPositionsRow, dataVersion?: number) =>
      positionPage(db, wallet, q, kept, counts, dataVersion),
  };
}

export const listPositions = (db: Db, wallet: string, q: PositionQuery) => runRead(db, positionListRead(db, wallet, q));

/**
 * The page of the wallet's positions, from its counts and open positions: from its page number,
 * or after a cursor's position. A walk with cursors values and ranks the open positions at the
 * prices of the data version it started at while that snapshot is held, so a price moving
 * between pages neither repeats nor skips a position.
 */
async function positionPage(
  db: Db,
  wallet: string,
  q: PositionQuery,
  kept: ReturnType<typeof keptOpenPositions>,
  counts: { total: number; open: number } & OpenPositionsRow,
  dataVersion: number | undefined,
): Promise<z.infer<typeof positionList>> {
  const { page, walk } = decodePositionsCursor(wallet, q);
  const offset = walk ? 0 : (page - 1) * q.limit;
  const snapshot =
    (walk && walkedSnapshot(db, walk.version)) ||
    (await valuationSnapshot(db, dataVersion ?? (await currentDataVersion(db))));
  const total = q.status === "open" ? counts.open : q.status === "closed" ? counts.total - counts.open : counts.total;
  let ranked: Ranked = { tokens: [], values: [] };
  let openFrom = 0;
  if (q.status !== "closed" && !walk?.closed && (walk || offset < counts.open)) {
    ranked = await byValue(db, snapshot, openPositionsOf(db, wallet, kept, counts));
    // After the walk's last open position: a lower value, or the same one and a later token.
    openFrom = walk ? afterIndex(ranked, walk) : offset;
  }
  const openPage = ranked.tokens.slice(openFrom, openFrom + q.limit);
  const moreOpen = openFrom + openPage.length < ranked.tokens.length;
  const closedOffset = walk ? 0 : q.status === "closed" ? offset : Math.max(0, offset - counts.open);
  const closedLimit = q.status === "open" || moreOpen ? 0 : q.limit - openPage.length;
  const closedAfter = walk?.closed
    ? sql`and (${p.realizedPnlUsd} < ${walk.key}
      or (${p.realizedPnlUsd} = ${walk.key} and ${p.tokenAddress} > ${walk.token}))`
    : sql``;
  // One closed position past the page says whether there is a next one.
  const rows = await queryPrepared<PositionRow & { k: number }>(
    db,
    sql`select ${POSITION_FIELDS}, 0 as k
          from ${walletPositions} p
         where ${p.wallet} = ${wallet} and ${p.tokenAddress} = any(${sql.param(openPage)})
        union all
        select * from (
          select ${POSITION_FIELDS},
                 (row_number() over (order by ${p.realizedPnlUsd} desc, ${p.tokenAddress}))::int as k
            from ${walletPositions} p
           where ${p.wallet} = ${wallet} and ${p.quantity} <= 0 ${closedAfter}
           order by ${p.realizedPnlUsd} desc, ${p.tokenAddress}
           ${pageWindow(closedLimit === 0 ? 0 : closedLimit + 1, closedOffset)}) closed`,
  );
  const rank = new Map(openPage.map((t, i) => [t, i]));
  const closed = rows.filter((r) => r.k > 0).sort((a, b) => a.k - b.k);
  // Open ones in value order (a position closed since it was ranked drops out), then the closed ones in the statement's
  // order.
  const positions = [
    ...rows
      .filter((r) => r.k === 0 && BigInt(r.quantity) > 0n)
      .sort((a, b) => rank.get(a.token_address)! - rank.get(b.token_address)!),
    ...closed.slice(0, closedLimit),
  ];
  // Where the page ends: after its last open position while more (open or closed) follow, after its last closed one
  // while more closed do.
  const lastOpen = openPage.length ? openFrom + openPage.length - 1 : -1;
  const closedFollow = q.status !== "open" && counts.total > counts.open;
  const lastClosed = closed.length > closedLimit ? closed[closedLimit - 1] : undefined;
  const next: PositionsWalk | undefined = lastClosed
    ? { version: snapshot.version, closed: true, key: lastClosed.realized_pnl_usd, token: lastClosed.token_address }
    : closedLimit === 0 && lastOpen >= 0 && (moreOpen || closedFollow)
      ? { version: snapshot.version, closed: false, key: ranked.values[lastOpen], token: ranked.tokens[lastOpen] }
      : undefined;
  const next_cursor = next
    ? encodeCursor(`positions:${q.status}`, page + 1, [wallet, next.version, next.closed ? 1 : 0, next.key, next.token])
    : null;
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
  return { data, total, page, limit: q.limit, next_cursor };
}

/** The first place in the ranking after the walk's last open position (value descending, then token). */
function afterIndex(ranked: Ranked, walk: PositionsWalk): number {
  const i = ranked.tokens.findIndex(
    (t, j) => ranked.values[j] < walk.key || (ranked.values[j] === walk.key && t > walk.token),
  );
  return i === -1 ? ranked.tokens.length : i;
}
