import { sql } from "drizzle-orm";
import type { z } from "zod";
import { type Db, pageWindow, queryPrepared } from "@/db/client";
import type { searchHit, searchResults } from "@/lib/api/schemas/search";
import type { Classification, SearchType } from "@/lib/domain/vocab";
import { iso, round } from "./format";
import { searchTokenIndex } from "./token-search-index";
import { currentDataVersion, tokenRows } from "./tokens";

export type SearchQuery = { q: string; type: SearchType; page: number; limit: number };

/** An address or a prefix of one: 0x and hex digits (so never a LIKE wildcard). */
const ADDRESS_PREFIX = /^0x[0-9a-f]{0,40}$/;

type Hit = z.infer<typeof searchHit>;
type WalletRow = { address: string; classification: Classification | null; trade_count: number | null; last_seen: string | null };

/**
 * Wallets whose address starts with `prefix`, the exact one first, then by trade count and last
 * activity: one page and the exact number, from the prefix range of the address index.
 */
async function searchWallets(db: Db, prefix: string, page: { offset: number; limit: number }) {
  const [r] = await queryPrepared<{ total: number; rows: WalletRow[] }>(
    db,
    sql`select (select count(*)::int from wallets where address like ${`${prefix}%`}) as total,
               (select coalesce(json_agg(x), '[]') from (
                  select w.address, w.classification, w.trade_count, w.last_seen from wallets w
                   where w.address like ${`${prefix}%`}
                   order by (w.address = ${prefix}) desc, w.trade_count desc, w.last_seen desc, w.address
                   ${pageWindow(page.limit, page.offset)}) x) as rows`,
  );
  return {
    total: r.total,
    hits: r.rows.map(
      (w): Hit => ({
        type: "wallet",
        address: w.address,
        classification: w.classification ?? "fresh",
        trade_count: w.trade_count ?? 0,
        last_seen: iso(new Date(w.last_seen ?? 0)),
        matched: "address",
      }),
    ),
  };
}

/**
 * Tokens whose symbol or name starts with `q` (case-insensitively) or whose address starts with
 * it, and wallets whose address starts with it, with the exact number of matches. Tokens come
 * first: an exact symbol or address match, then by liquidity and 24 h volume (the token list's
 * in-memory index, token-search-index.ts); then wallets by trade count and last activity.
 */
export async function search(db: Db, query: SearchQuery, dataVersion?: number): Promise<z.infer<typeof searchResults>> {
  const q = query.q.toLowerCase();
  const byAddress = ADDRESS_PREFIX.test(q);
  const withTokens = query.type !== "wallet";
  const withWallets = query.type !== "token" && byAddress;
  const offset = (query.page - 1) * query.limit;
  const envelope = { page: query.page, limit: query.limit };
  // Wallets only, and not an address: nothing can match.
  if (!withTokens && !withWallets) return { data: [], total: 0, ...envelope };
  const version = dataVersion ?? (await currentDataVersion(db));
  const tokens = withTokens ? await searchTokenIndex(db, version, q, byAddress, { offset, limit: query.limit }) : { matches: [], total: 0 };
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
            matched,
          },
        ]
      : [];
  });
  const wallets = withWallets
    ? await searchWallets(db, q, { offset: Math.max(0, offset - tokens.total), limit: query.limit - tokens.matches.length })
    : { hits: [], total: 0 };
  return { data: [...tokenHits, ...wallets.hits], total: tokens.total + wallets.total, ...envelope };
}
