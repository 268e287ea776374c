import { type SQLWrapper, sql } from "drizzle-orm";
import { aliasColumns } from "@/db/bulk";
import { type Db, queryPrepared } from "@/db/client";
import { tokens, walletPositionCounts, walletPositions } from "@/db/schema";
import { databaseCache } from "@/lib/cache";
import { toUnits } from "./format";
import { type Snapshot, snapshotAt, snapshotValues } from "./token-list-index";

/*
 * A wallet's open positions as the positions list and the wallet profile read them: tokens and
 * quantities, kept between reads while the wallet's changed_xact stays the same, and valued (and
 * ranked by value) at the prices of the token list snapshot of the read's data version. Both
 * reads value by the rule here, at that one snapshot (valuationSnapshot), so the profile's
 * portfolio and PnL agree with the positions list at the same data version.
 */

/**
 * Tokens' symbols and decimals, which never change: each read once, per database (a token's
 * address names it only within one chain), a bounded number kept.
 */
type TokenFacts = Pick<typeof tokens.$inferSelect, "symbol" | "decimals">;
const factsFor = databaseCache<string, TokenFacts>({ name: "tokenFacts", max: 200_000 });

function keepFacts(db: Db, rows: (TokenFacts & { address: string })[]) {
  const facts = factsFor(db);
  for (const r of rows) facts.set(r.address, { symbol: r.symbol, decimals: r.decimals });
}

export async function tokenFacts(db: Db, addresses: string[]): Promise<(TokenFacts | undefined)[]> {
  const facts = factsFor(db);
  const missing = addresses.filter((t) => !facts.has(t));
  const read = new Map<string, TokenFacts>();
  if (missing.length) {
    const rows = await queryPrepared<Pick<typeof tokens.$inferSelect, "address"> & TokenFacts>(
      db,
      sql`select ${tokens.address}, ${tokens.symbol}, ${tokens.decimals} from ${tokens}
           where ${tokens.address} = any(${sql.param(missing)})`,
    );
    keepFacts(db, rows);
    for (const r of rows) read.set(r.address, { symbol: r.symbol, decimals: r.decimals });
  }
  return addresses.map((t) => facts.get(t) ?? read.get(t));
}

/** A wallet's open positions as read: tokens, with their quantities in units. */
export type OpenPositions = {
  /** wallet_position_counts.changed_xact when they were read: they hold while it is the same. */
  changed: string | null;
  tokens: string[];
  units: Float64Array;
  /** The tokens by value at the prices of one token list snapshot, kept for that snapshot. */
  ranked?: Ranked & { snapshot: Snapshot };
};

/**
 * The open positions of the wallets read lately, per database (changed_xact is a transaction id
 * of one). A busy wallet holds thousands of open positions and trades far less often than they
 * are read, so a read sends and parses them again only after they changed.
 */
const keptFor = databaseCache<string, OpenPositions>({
  name: "openPositions",
  max: 200_000,
  // A wallet counts as many as its open positions (and one for itself: a wallet without any).
  weight: (open) => open.tokens.length + 1,
});

/** A row's open positions, their tokens' facts kept on the way. */
function readOpen(db: Db, row: OpenPositionsRow): OpenPositions {
  const [tokens, quantities, symbols, decimals] = [
    row.tokens ?? [],
    row.quantities ?? [],
    row.symbols ?? [],
    row.decimals ?? [],
  ];
  keepFacts(
    db,
    tokens.map((address, i) => ({ address, symbol: symbols[i], decimals: decimals[i] })),
  );
  return { changed: row.changed, tokens, units: Float64Array.from(quantities, (q, i) => toUnits(q, decimals[i])) };
}

/** The prices a wallet read values with: the token list snapshot of its data version, the same for each read of it. */
export const valuationSnapshot = (db: Db, version: number): Promise<Snapshot> => snapshotAt(db, version);

/**
 * A holding's USD value: its quantity in units at the snapshot's price; nothing for a closed
 * position (a quantity at or below zero) or a token without a price in the snapshot (one written
 * since it was built).
 */
export const holdingValue = (units: number, price: number): number => (units > 0 ? units * price || 0 : 0);

/** Open positions' tokens in value order, with their values. */
export type Ranked = { tokens: string[]; values: number[] };

/**
 * The tokens of open positions by value at the snapshot's prices, highest first, then by address,
 * with their values. The prices are the token list's snapshot (token-list-index.ts), so ranking a
 * wallet with thousands of open positions reads no price row for each.
 */
export async function byValue(db: Db, snapshot: Snapshot, open: OpenPositions): Promise<Ranked> {
  if (open.ranked?.snapshot !== snapshot) {
    const { tokens, units } = open;
    const prices = await snapshotValues(db, snapshot, "priceUsd", tokens);
    const value = units.map((u, i) => holdingValue(u, prices[i]));
    const order = tokens.map((_, i) => i).sort((a, b) => value[b] - value[a] || (tokens[a] < tokens[b] ? -1 : 1));
    open.ranked = { snapshot, tokens: order.map((i) => tokens[i]), values: order.map((i) => value[i]) };
  }
  return open.ranked;
}

/** The open positions kept for `wallet`, if any: what a read sends to openPositionsJoin. */
export const keptOpenPositions = (db: Db, wallet: string): OpenPositions | undefined => keptFor(db).get(wallet);

/** The mark of the kept open positions, for openPositionsJoin: null when none are kept. */
export const keptMark = (kept: OpenPositions | undefined) => kept?.changed ?? null;

/** What OPEN_POSITIONS_COLUMNS reads: the counts row's mark, and the open positions unless they are the kept ones. */
export type OpenPositionsRow = {
  changed: string | null;
  tokens: string[] | null;
  quantities: string[] | null;
  symbols: string[] | null;
  decimals: number[] | null;
};

/** The wallet's wallet_position_counts row, as openPositionsJoin joins it (a read may take its counts too). */
export const positionCounts = aliasColumns(walletPositionCounts, "c");
const p = aliasColumns(walletPositions, "p");
const t = aliasColumns(tokens, "t");

/** The columns of OpenPositionsRow, from the counts row and `o` (openPositionsJoin). */
export const OPEN_POSITIONS_COLUMNS = sql`${positionCounts.changedXact}::text as changed, o.tokens, o.quantities,
  o.symbols, o.decimals`;

/**
 * The wallet's counts row (positionCounts), and a lateral join `o` of the open positions of
 * `wallet` (an SQL expression) as arrays, with their tokens' facts, when `wanted` and they are not
 * the ones kept: the counts row tells whether they changed since the kept ones' mark, `keptMark`
 * (keptMark(kept), or a statement's placeholder for it).
 */
export const openPositionsJoin = (wallet: SQLWrapper, keptMark: unknown, wanted: unknown) =>
  sql`left join ${walletPositionCounts} c on ${positionCounts.wallet} = ${wallet}
      left join lateral (select array_agg(${p.tokenAddress}) as tokens, array_agg(${p.quantity}::text) as quantities,
                               array_agg(${t.symbol}) as symbols, array_agg(${t.decimals}) as decimals
                          from ${walletPositions} p join ${tokens} t on ${t.address} = ${p.tokenAddress}
                          where ${wanted}
                            and ${positionCounts.changedXact} is distinct from ${keptMark}::bigint
                            and ${p.wallet} = ${wallet} and ${p.quantity} > 0) o on true`;

/**
 * The wallet's open positions: the kept ones while the row's mark says they have not changed, else the row's, kept from
 * now on.
 */
export function openPositionsOf(
  db: Db,
  wallet: string,
  kept: OpenPositions | undefined,
  row: OpenPositionsRow,
): OpenPositions {
  if (kept && row.changed !== null && kept.changed === row.changed) return kept;
  const open = readOpen(db, row);
  if (row.changed !== null) keptFor(db).set(wallet, open);
  return open;
}

/**
 * Open positions by value (byValue's order) with their tokens' symbols, quantities in units and values; a token gone
 * since (a reorg) left out.
 */
export async function valuedOpenPositions(db: Db, snapshot: Snapshot, open: OpenPositions) {
  const { tokens } = await byValue(db, snapshot, open);
  const index = new Map(open.tokens.map((t, i) => [t, i]));
  const [facts, prices] = await Promise.all([tokenFacts(db, tokens), snapshotValues(db, snapshot, "priceUsd", tokens)]);
  return tokens.flatMap((token, i) => {
    const units = open.units[index.get(token)!];
    return facts[i] ? [{ token, symbol: facts[i].symbol, units, value: holdingValue(units, prices[i]) }] : [];
  });
}
