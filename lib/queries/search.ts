import { sql } from "drizzle-orm";
import { z } from "zod";
import { aliasColumns } from "@/db/bulk";
import { type Db, pageWindow, queryPrepared } from "@/db/client";
import { wallets } from "@/db/schema";
import type { searchHit, searchResults } from "@/lib/api/schemas/search";
import type { SearchType } from "@/lib/domain/vocab";
import { cursorAddress, decodeOwnedCursor, encodeCursor } from "./cursor";
import { iso, round } from "./format";
import { searchTokenIndex, type TokenRank } from "./token-search-index";
import { currentDataVersion, tokenRows } from "./tokens";
import type { WalletRow } from "./wallets";

export type SearchQuery = { q: string; type: SearchType; page: number; limit: number; cursor?: string };

/** An address or a prefix of one: 0x and hex digits (so never a LIKE wildcard). */
const ADDRESS_PREFIX = /^0x[0-9a-f]{0,40}$/;

type Hit = z.infer<typeof searchHit>;
/** A wallet the search found: 1 in `exact` when its address is the query. */
type WalletHit = Pick<WalletRow, "address" | "classification" | "trade_count" | "last_seen"> & { exact: number };

/**
 * Where a wallet stands in search order: exact match (1) first, then trade count and last activity (descending), then
 * address.
 */
type WalletRank = { exact: number; trade_count: number; last_seen: string; address: string };

/**
 * A search cursor: the query it walks, then where the walk stands, in the tokens (the snapshot's
 * data version and the last token's rank) or in the wallets that follow them (the last wallet's rank).
 */
const searchPosition = z.union([
  z.tuple([
    z.string(),
    z.literal("t"),
    z.number().int().min(0),
    z.union([z.literal(0), z.literal(1)]),
    z.number(),
    z.number(),
    cursorAddress,
  ]),
  z.tuple([
    z.string(),
    z.literal("w"),
    z.union([z.literal(0), z.literal(1)]),
    z.number().int(),
    z.iso.datetime({ offset: true }),
    cursorAddress,
  ]),
]);
type SearchWalk = { tokens?: { version: number; after: TokenRank }; wallets?: WalletRank };

function decodeSearchCursor(query: SearchQuery, q: string): { page: number; walk?: SearchWalk } {
  if (query.cursor === undefined) return { page: query.page };
  const { page, position } = decodeOwnedCursor(
    query.cursor,
    `search:${query.type}`,
    searchPosition,
    q,
    "another search",
  );
  if (position[1] === "t") {
    const [, , version, group, liquidity, volume, address] = position;
    return { page, walk: { tokens: { version, after: { group, liquidity, volume, address } } } };
  }
  const [, , exact, trade_count, last_seen, address] = position;
  return { page, walk: { wallets: { exact, trade_count, last_seen, address } } };
}

const w = aliasColumns(wallets, "w");

/**
 * Wallets whose address starts with `prefix`, the exact one first, then by trade count and last
 * activity: one page (from an offset, or after a walk's last wallet) and the exact number, from
 * the prefix range of the address index.
 */
async function searchWallets(db: Db, prefix: string, page: { offset: number; limit: number; after?: WalletRank }) {
  const exact = sql`(${w.address} = ${prefix})::int`;
  const a = page.after;
  const after = a
    ? sql`and (${exact} < ${a.exact}
      or (${exact} = ${a.exact} and (${w.tradeCount} < ${a.trade_count} or (${w.tradeCount} = ${a.trade_count}
          and (${w.lastSeen} < ${a.last_seen}::timestamptz
            or (${w.lastSeen} = ${a.last_seen}::timestamptz and ${w.address} > ${a.address}))))))`
    : sql``;
  const [r] = await queryPrepared<{ total: number; rows: WalletHit[] }>(
    db,
    sql`select (select count(*)::int from ${wallets} where ${wallets.address} like ${`${prefix}%`}) as total,
               (select coalesce(json_agg(x), '[]') from (
                  select ${w.address}, ${w.classification}, ${w.tradeCount}, ${w.lastSeen}, ${exact} as exact
                    from ${wallets} w
                   where ${w.address} like ${`${prefix}%`} ${after}
                   order by ${exact} desc, ${w.tradeCount} desc, ${w.lastSeen} desc, ${w.address}
                   ${pageWindow(page.limit, page.offset)}) x) as rows`,
  );
  return {
    total: r.total,
    rows: r.rows,
    hits: r.rows.map(
      (w): Hit => ({
        type: "wallet",
        address: w.address,
        classification: w.classification,
        trade_count: w.trade_count,
        last_seen: iso(new Date(w.last_seen)),
        matched: "address",
      }),
    ),
  };
}

/**
 * Tokens whose symbol or name starts with `q` (case-insensitively) or whose address starts with
 * it, and wallets whose address starts with it, with the exact number of matches and the next
 * page's cursor. Tokens come first: an exact symbol or address match, then by liquidity and 24 h
 * volume (the token list's in-memory index, token-search-index.ts); then wallets by trade count
 * and last activity. A page starts at its page number's offset, or after a cursor's last match.
 */
export async function search(db: Db, query: SearchQuery, dataVersion?: number): Promise<z.infer<typeof searchResults>> {
  const q = query.q.toLowerCase();
  const byAddress = ADDRESS_PREFIX.test(q);
  const withTokens = query.type !== "wallet";
  const withWallets = query.type !== "token" && byAddress;
  const { page, walk } = decodeSearchCursor(query, q);
  const { limit } = query;
  const offset = walk ? 0 : (page - 1) * limit;
  const envelope = { page, limit };
  // Wallets only, and not an address: nothing can match.
  if (!withTokens && !withWallets) return { data: [], total: 0, ...envelope, next_cursor: null };
  const version = dataVersion ?? (await currentDataVersion(db));
  // A walk already in the wallets only counts the tokens.
  const tokenPage = walk?.wallets
    ? { offset: 0, limit: 0 }
    : { offset, limit, after: walk?.tokens?.after, walk: walk?.tokens };
  const tokens = withTokens
    ? await searchTokenIndex(db, version, q, byAddress, tokenPage)
    : { matches: [], total: 0, last: null, more: false, version };
  const rows = await tokenRows(
    db,
    version,
    tokens.matches.map((m) => m.address),
  );
  // A token deleted since the index was built (a reorg) drops out of this page.
  const tokenHits = tokens.matches.flatMap(({ address, matched }): Hit[] => {
    const r = rows.get(address);
    return r
      ? [
          {
            type: "token",
            address,
            name: r.name,
            symbol: r.symbol,
            price_usd: r.price_usd ?? 0,
            liquidity_usd: round(r.liquidity_usd ?? 0, 2),
            volume_24h_usd: round(r.volume_24h_usd ?? 0, 2),
            price_change_24h_pct: r.price_change_24h_pct === null ? null : round(r.price_change_24h_pct, 2),
            risk_score: round(r.risk_score, 1),
            risk_flags: r.risk_flags,
            matched,
          },
        ]
      : [];
  });
  const tokensFollow = !walk?.wallets && tokens.more;
  const walletLimit = tokensFollow ? 0 : limit - tokens.matches.length;
  const walletPage = {
    offset: walk ? 0 : Math.max(0, offset - tokens.total),
    limit: walletLimit && walletLimit + 1,
    after: walk?.wallets,
  };
  const wallets = withWallets ? await searchWallets(db, q, walletPage) : { hits: [], rows: [], total: 0 };
  const walletHits = wallets.hits.slice(0, walletLimit);
  // The next page starts after the last wallet while more follow, or after the last token while tokens or wallets do.
  const lastWallet = wallets.rows[walletLimit - 1];
  const list = `search:${query.type}`;
  let next_cursor: string | null = null;
  if (wallets.rows.length > walletLimit && lastWallet)
    next_cursor = encodeCursor(list, page + 1, [
      q,
      "w",
      lastWallet.exact,
      lastWallet.trade_count,
      lastWallet.last_seen,
      lastWallet.address,
    ]);
  else if (!walletHits.length && tokens.last && (tokensFollow || (walletLimit === 0 && wallets.total > 0))) {
    const r = tokens.last;
    next_cursor = encodeCursor(list, page + 1, [q, "t", tokens.version, r.group, r.liquidity, r.volume, r.address]);
  }
  return { data: [...tokenHits, ...walletHits], total: tokens.total + wallets.total, ...envelope, next_cursor };
}
