import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { aliasColumns } from "@/db/bulk";
import { type Db, queryPrepared } from "@/db/client";
import type { SqlRow } from "@/db/rows";
import { syncState, tokenMetrics, tokenScores, tokens } from "@/db/schema";
import { statement } from "@/db/statement";
import type { token, tokenProfile } from "@/lib/api/schemas/tokens";
import { databaseCache } from "@/lib/cache";
import type { TokenFilter } from "@/lib/domain/token-filter";
import type { RiskFlag, TokenSort } from "@/lib/domain/vocab";
import {
  type CreatorColumns,
  type CreatorHoldingRow,
  creatorHoldingSql,
  toCreatorHolding,
  toTokenCreator,
} from "./creator";
import { cursorAddress, cursorNumber, decodeCursor, encodeCursor } from "./cursor";
import { hoursSince, iso, round } from "./format";
import { type HolderRow, holdersSql, toHolder } from "./holders";
import { runRead } from "./read";
import { type SecurityRow, securityColumns, securityJoin, toSecurity } from "./security";
import { queryTokenList } from "./token-list-index";

/** The columns of tokenRowsSql. */
type TokenRow = CreatorColumns &
  SqlRow<
    typeof tokenMetrics,
    | "address"
    | "marketCapUsd"
    | "volume24hUsd"
    | "liquidityUsd"
    | "priceUsd"
    | "priceChange5mPct"
    | "priceChange1hPct"
    | "priceChange24hPct"
    | "volume1hUsd"
    | "buys24h"
    | "sells24h"
    | "makers24h"
    | "fdvUsd"
    | "holderCount"
    | "createdAt"
    | "riskScore"
  > &
  SqlRow<typeof tokens, "name" | "symbol" | "decimals"> & {
    /** The flags the worker raised: risk_flags holds them as text. */
    risk_flags: RiskFlag[];
    ai_summary: string;
    total_supply: string;
  };

const m = aliasColumns(tokenMetrics, "m");
const t = aliasColumns(tokens, "t");
const s = aliasColumns(tokenScores, "s");

/** Token rows for the list and the profile: the columns of TokenRow. */
const tokenRowsSql = (where: SQL) =>
  sql`select ${m.address}, ${t.name}, ${t.symbol}, ${m.marketCapUsd}, ${m.volume24hUsd}, ${m.liquidityUsd},
             ${m.holderCount}, ${m.priceUsd}, ${m.priceChange5mPct}, ${m.priceChange1hPct}, ${m.priceChange24hPct},
             ${m.volume1hUsd}, ${m.buys24h}, ${m.sells24h}, ${m.makers24h}, ${m.fdvUsd},
             ${m.createdAt}, ${m.riskScore}, ${m.riskFlags}, coalesce(${s.aiSummary}, '') as ai_summary, ${t.launchpad},
             ${t.creator}, ${t.origin}, ${t.totalSupply}::text as total_supply, ${t.decimals}
        from ${tokenMetrics} m
        join ${tokens} t on ${t.address} = ${m.address}
        left join ${tokenScores} s on ${s.address} = ${m.address}
       where ${where}`;

/** The rows of a list of addresses: `= any($1)`, one prepared statement for every page size. */
const tokenRowsOfSql = statement<"addresses">((v) => tokenRowsSql(sql`${m.address} = any(${v.addresses})`));

/** A token as the API sends it; typed by the response schema, so the two cannot drift apart. */
export type Token = z.infer<typeof token>;

function toToken(r: TokenRow, now: Date): Token {
  return {
    address: r.address,
    name: r.name,
    symbol: r.symbol,
    market_cap_usd: round(r.market_cap_usd, 2),
    volume_24h_usd: round(r.volume_24h_usd, 2),
    liquidity_usd: round(r.liquidity_usd, 2),
    holder_count: r.holder_count,
    age_hours: hoursSince(new Date(r.created_at), now),
    risk_score: round(r.risk_score, 1),
    risk_flags: r.risk_flags,
    ai_summary: r.ai_summary,
    launchpad: r.launchpad,
    creator: toTokenCreator(r),
    price_usd: r.price_usd,
    price_change_5m_pct: changePct(r.price_change_5m_pct),
    price_change_1h_pct: changePct(r.price_change_1h_pct),
    price_change_24h_pct: changePct(r.price_change_24h_pct),
    volume_1h_usd: round(r.volume_1h_usd, 2),
    txns_24h: { buys: r.buys_24h, sells: r.sells_24h },
    makers_24h: r.makers_24h,
    fdv_usd: round(r.fdv_usd, 2),
  };
}

const changePct = (pct: number | null) => (pct === null ? null : round(pct, 2));

export type TokenListQuery = { filter: TokenFilter; sort: TokenSort; page: number; limit: number; cursor?: string };

/** The data version that keys the list index, for callers without one from the auth round trip. */
export async function currentDataVersion(db: Db): Promise<number> {
  const [row] = await db.select({ v: syncState.dataVersion }).from(syncState).limit(1);
  return row?.v ?? 0;
}

/**
 * Token rows of one data version held in memory: list pages mostly show the same leading
 * tokens, so after the first requests of a version a page costs no query. Replaced when the
 * version changes (any write by the worker) and bounded in size; age_hours is computed per
 * response, so a cached row never goes stale within its version.
 */
const rowCache = databaseCache<string, TokenRow>({ name: "tokenRows", max: 20_000 });

/** The rows of `addresses` that exist, by address. */
export async function tokenRows(db: Db, version: number, addresses: string[]): Promise<Map<string, TokenRow>> {
  const cache = rowCache(db).at(version);
  const found = new Map<string, TokenRow>();
  const missing: string[] = [];
  for (const a of addresses) {
    const row = cache.get(a);
    if (row) found.set(a, row);
    else missing.push(a);
  }
  if (missing.length) {
    const rows = await queryPrepared<TokenRow>(db, tokenRowsOfSql({ addresses: missing }));
    for (const r of rows) {
      cache.set(r.address, r);
      found.set(r.address, r);
    }
  }
  return found;
}

/** A token list cursor: the walk's data version, the last token's sort key (null: none) and address. */
const listPosition = z.tuple([z.number().int().min(0), cursorNumber, cursorAddress]);

/**
 * A page of the filtered, sorted list (from its page number, or from where a cursor left off)
 * with the exact total, the page's number and the cursor of the next page.
 */
export async function listTokens(
  db: Db,
  q: TokenListQuery,
  now: Date,
  dataVersion?: number,
): Promise<{ data: Token[]; total: number; page: number; next_cursor: string | null }> {
  const version = dataVersion ?? (await currentDataVersion(db));
  const list = `tokens:${q.sort}`;
  const cursor = q.cursor === undefined ? undefined : decodeCursor(q.cursor, list, listPosition);
  const after = cursor && {
    version: cursor.position[0],
    key: cursor.position[1] ?? Number.NaN,
    address: cursor.position[2],
  };
  const page = cursor?.page ?? q.page;
  const { addresses, total, next } = await queryTokenList(db, version, { ...q, after }, now);
  const next_cursor =
    next && encodeCursor(list, page + 1, [next.version, Number.isNaN(next.key) ? null : next.key, next.address]);
  if (!addresses.length) return { data: [], total, page, next_cursor };
  const rows = await tokenRows(db, version, addresses);
  // A token deleted since the index was built (a reorg) drops out of this page.
  const data = addresses.flatMap((a) => {
    const row = rows.get(a);
    return row ? [toToken(row, now)] : [];
  });
  return { data, total, page, next_cursor };
}

/** The tokens of `addresses` that are indexed, in that order (a batch lookup). */
export async function getTokens(db: Db, addresses: string[], now: Date, dataVersion?: number) {
  const rows = await tokenRows(db, dataVersion ?? (await currentDataVersion(db)), addresses);
  return addresses.flatMap((a) => {
    const row = rows.get(a);
    return row ? [toToken(row, now)] : [];
  });
}

/**
 * A token's row, its top holders (as one JSON array), its creator's holding and its security checks in one statement.
 */
const tokenProfileSql = statement<"address">(
  (v) => sql`select tok.*, (select coalesce(json_agg(h order by h.amount::numeric desc, h.holder), '[]')
                              from (${holdersSql(sql`tok.address`)}) h) as holders,
                    ${creatorHoldingSql(sql`tok.address`, sql`tok.creator`)} as creator_holding, ${securityColumns}
               from (${tokenRowsSql(sql`${m.address} = ${v.address}`)}) tok
               ${securityJoin(sql`tok.address`)}`,
);

export const tokenProfileRead = (address: string, now: Date) => ({
  first: tokenProfileSql({ address }),
  answer: (
    token: TokenRow & SecurityRow & { holders: HolderRow[]; creator_holding: CreatorHoldingRow | null },
  ): z.infer<typeof tokenProfile> => ({
    ...toToken(token, now),
    top_holders: token.holders.map((h) => toHolder(h, token)),
    created_at: iso(new Date(token.created_at)),
    creator_holding: token.creator_holding && toCreatorHolding(token.creator_holding, token),
    security: toSecurity(token.address, token),
  }),
});

export const getTokenProfile = (db: Db, address: string, now: Date) => runRead(db, tokenProfileRead(address, now));
