import { sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, pageWindow, queryPrepared } from "@/db/client";
import type { position, positionList } from "@/lib/api/schemas/wallets";
import type { PositionStatus } from "@/lib/domain/vocab";
import { iso, round, toUnits } from "./format";
import { type Snapshot, snapshotFor, snapshotValues } from "./token-list-index";
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
  first_trade_at: string | null;
  last_trade_at: string | null;
};

const blockTime = (block: ReturnType<typeof sql>) => sql`(select b.timestamp from blocks b where b.number = ${block})`;

/**
 * A position's fields as the page reads them, from `p` (wallet_positions); the token's symbol and
 * decimals, which never change, are read once (tokenFacts), and its price is the snapshot's that
 * ranked the open positions.
 */
const POSITION_FIELDS = sql`p.token_address, p.quantity::text as quantity, p.cost_basis_usd, p.realized_pnl_usd, p.bought_usd, p.sold_usd, p.buy_count, p.sell_count,
  p.unknown_cost_quantity::text as unknown_cost_quantity,
  ${blockTime(sql`coalesce(p.first_buy_block, p.last_trade_block)`)} as first_trade_at,
  ${blockTime(sql`p.last_trade_block`)} as last_trade_at`;

/** Tokens' symbols and decimals, which never change: each read once (a bounded number kept). */
const FACTS_MAX = 200_000;
type TokenFacts = { symbol: string; decimals: number };
const factsCache = new Map<string, TokenFacts>();

async function tokenFacts(db: Db, tokens: string[]): Promise<(TokenFacts | undefined)[]> {
  const missing = tokens.filter((t) => !factsCache.has(t));
  if (missing.length) {
    const rows = await queryPrepared<{ address: string } & TokenFacts>(
      db,
      sql`select address, symbol, decimals from tokens where address = any(${sql.param(missing)})`,
    );
    for (const r of rows) factsCache.set(r.address, { symbol: r.symbol, decimals: r.decimals });
    // Insertion order is age order: the oldest go first.
    for (const t of factsCache.keys()) {
      if (factsCache.size <= FACTS_MAX) break;
      factsCache.delete(t);
    }
  }
  return tokens.map((t) => factsCache.get(t));
}

/** A wallet's open positions as read: tokens, with their quantities in units. */
type OpenPositions = {
  /** wallet_position_counts.changed_xact when they were read: they hold while it is the same. */
  changed: string | null;
  tokens: string[];
  units: Float64Array;
  /** The tokens by value at the prices of one token list snapshot, kept for that snapshot. */
  ranked?: { snapshot: Snapshot; tokens: string[] };
};

/**
 * The open positions of the wallets read lately, per database (changed_xact is a transaction id
 * of one). A busy wallet holds thousands of open positions and trades far less often than its
 * page is read, so its page reads them again only after they changed.
 */
const KEPT_POSITIONS_MAX = 200_000;
const keptByDb = new WeakMap<object, { positions: number; wallets: Map<string, OpenPositions> }>();

function keptFor(db: Db) {
  let kept = keptByDb.get(db.$client);
  if (!kept) keptByDb.set(db.$client, (kept = { positions: 0, wallets: new Map() }));
  return kept;
}

async function readOpen(db: Db, changed: string | null, tokens: string[], quantities: string[]): Promise<OpenPositions> {
  const facts = await tokenFacts(db, tokens);
  // A token gone since (a reorg) is worth 0 here.
  const units = Float64Array.from(quantities, (q, i) => (facts[i] === undefined ? 0 : toUnits(q, facts[i].decimals)));
  return { changed, tokens, units };
}

function keep(db: Db, wallet: string, open: OpenPositions) {
  const kept = keptFor(db);
  kept.positions -= kept.wallets.get(wallet)?.tokens.length ?? 0;
  kept.wallets.delete(wallet);
  kept.wallets.set(wallet, open);
  kept.positions += open.tokens.length;
  // Insertion order is age order: the oldest go first.
  for (const [w, o] of kept.wallets) {
    if (kept.positions <= KEPT_POSITIONS_MAX) break;
    kept.wallets.delete(w);
    kept.positions -= o.tokens.length;
  }
}

/**
 * The tokens of open positions by value at the token's price, highest first, then by address.
 * The prices are the token list's snapshot of `version` (token-list-index.ts), so ranking a wallet
 * with thousands of open positions reads no price or decimals row for each.
 */
async function byValue(db: Db, version: number, open: OpenPositions): Promise<string[]> {
  const snapshot = await snapshotFor(db, version);
  if (open.ranked?.snapshot !== snapshot) {
    const { tokens, units } = open;
    const prices = await snapshotValues(db, snapshot, "priceUsd", tokens);
    // Without a price (a token written since the snapshot), a position is worth 0 here.
    const value = units.map((u, i) => u * prices[i] || 0);
    const order = tokens.map((_, i) => i).sort((a, b) => value[b] - value[a] || (tokens[a] < tokens[b] ? -1 : 1));
    open.ranked = { snapshot, tokens: order.map((i) => tokens[i]) };
  }
  return open.ranked.tokens;
}

/**
 * One page of a wallet's positions (wallet_positions: average-cost books per token), open ones
 * first by value, then closed ones by realized PnL (best first, in the order of
 * wallet_positions_closed_idx, so a wallet with thousands reads only the page), with the exact
 * number of them (the counts the triggers keep, db/functions/position-counts.sql): null when the
 * wallet is not indexed. Value and unrealized PnL (value less cost basis) are at the token's
 * price in the token list snapshot that ranked them (the data version's, or for a moment while it
 * builds the one before); tokens of unknown cost (transfers in) count at zero cost.
 */
export async function listPositions(
  db: Db,
  wallet: string,
  q: { status: PositionStatus; page: number; limit: number },
  dataVersion?: number,
): Promise<z.infer<typeof positionList> | null> {
  const offset = (q.page - 1) * q.limit;
  const version = dataVersion ?? (await currentDataVersion(db));
  const kept = keptFor(db).wallets.get(wallet);
  // The counts, and the open positions to rank when the page may hold some and they changed since kept, in one round trip.
  const [counts] = await queryPrepared<{ total: number; open: number; changed: string | null; tokens: string[] | null; quantities: string[] | null }>(
    db,
    sql`select coalesce(c.total, 0) as total, coalesce(c.open, 0) as open, c.changed_xact::text as changed, o.tokens, o.quantities
          from wallets w left join wallet_position_counts c on c.wallet = w.address
          left join lateral (select array_agg(p.token_address) as tokens, array_agg(p.quantity::text) as quantities from wallet_positions p
                              where ${q.status !== "closed"} and c.changed_xact is distinct from ${kept?.changed ?? null}::bigint
                                and p.wallet = w.address and p.quantity > 0) o on true
         where w.address = ${wallet}`,
  );
  if (!counts) return null;
  const total = q.status === "open" ? counts.open : q.status === "closed" ? counts.total - counts.open : counts.total;
  let openPage: string[] = [];
  if (q.status !== "closed" && offset < counts.open) {
    let open = kept;
    if (!open || counts.changed === null || open.changed !== counts.changed) {
      open = await readOpen(db, counts.changed, counts.tokens ?? [], counts.quantities ?? []);
      if (counts.changed !== null) keep(db, wallet, open);
    }
    openPage = (await byValue(db, version, open)).slice(offset, offset + q.limit);
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
  const [facts, prices] = await Promise.all([tokenFacts(db, tokens), snapshotValues(db, await snapshotFor(db, version), "priceUsd", tokens)]);
  // A token gone since (a reorg) drops out, as its position does.
  const data = positions.flatMap((p, i): z.infer<typeof position>[] => {
    const token = facts[i];
    if (!token) return [];
    // As the wallet's pnl_estimate_usd has it (worker/derive/wallets.ts), so the positions' pnl_usd add up to it.
    const quantity = toUnits(p.quantity, token.decimals);
    const value = quantity * (prices[i] || 0);
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
        first_trade_at: p.first_trade_at === null ? null : iso(new Date(p.first_trade_at)),
        last_trade_at: p.last_trade_at === null ? null : iso(new Date(p.last_trade_at)),
      },
    ];
  });
  return { data, total, page: q.page, limit: q.limit };
}
