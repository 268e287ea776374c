import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db/client";
import type { searchHit, searchResults } from "@/lib/api/schemas/search";
import type { Classification, SearchType } from "@/lib/domain/vocab";
import { iso, round } from "./format";

export type SearchQuery = { q: string; type: SearchType; page: number; limit: number };

/** An address or a prefix of one: 0x and hex digits. */
const ADDRESS_PREFIX = /^0x[0-9a-f]{0,40}$/;

/** `text` as a LIKE pattern matching itself literally, followed by anything. */
const prefixPattern = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type Row = {
  type: "token" | "wallet";
  address: string;
  name: string | null;
  symbol: string | null;
  price_usd: number | null;
  liquidity_usd: number | null;
  volume_24h_usd: number | null;
  classification: Classification | null;
  trade_count: number | null;
  last_seen: string | null;
  matched: "symbol" | "name" | "address";
};

/**
 * Tokens whose symbol or name starts with `q` (case-insensitively) or whose address starts with
 * it, and wallets whose address starts with it, with the exact number of matches. Tokens come
 * first: an exact symbol or address match, then by liquidity and 24 h volume; then wallets by
 * trade count and last activity. The matches are prefix ranges of the text_pattern_ops indexes
 * on lower(symbol), lower(name) and the addresses, so a search reads only what matches; the
 * statement is planned with its pattern (unnamed), which is what lets LIKE use those indexes.
 */
export async function search(db: Db, query: SearchQuery): Promise<z.infer<typeof searchResults>> {
  const q = query.q.toLowerCase();
  const pattern = prefixPattern(q);
  const byAddress = ADDRESS_PREFIX.test(q);
  const withTokens = query.type !== "wallet";
  const withWallets = query.type !== "token" && byAddress;
  const offset = (query.page - 1) * query.limit;
  const tokenMatch = sql`(lower(t.symbol) like ${pattern} or lower(t.name) like ${pattern}${byAddress ? sql` or t.address like ${pattern}` : sql``})`;
  const walletMatch = sql`w.address like ${pattern}`;
  // Each side contributes at most the rows up to the end of the page.
  const tokens = sql`(select 0 as side, (lower(t.symbol) = ${q} or t.address = ${q})::int as exact, 'token' as type, t.address, t.name, t.symbol,
                             m.price_usd, m.liquidity_usd, m.volume_24h_usd, null::text as classification,
                             null::int as trade_count, null::timestamptz as last_seen,
                             case when lower(t.symbol) like ${pattern} then 'symbol' when lower(t.name) like ${pattern} then 'name' else 'address' end as matched,
                             coalesce(m.liquidity_usd, 0) as rank1, coalesce(m.volume_24h_usd, 0) as rank2
                        from tokens t left join token_metrics m on m.address = t.address
                       where ${tokenMatch}
                       order by exact desc, rank1 desc, rank2 desc, t.address limit ${offset + query.limit})`;
  const wallets = sql`(select 1 as side, (w.address = ${q})::int as exact, 'wallet' as type, w.address, null::text as name, null::text as symbol,
                              null::float8 as price_usd, null::float8 as liquidity_usd, null::float8 as volume_24h_usd,
                              w.classification, w.trade_count, w.last_seen, 'address' as matched,
                              w.trade_count::float8 as rank1, extract(epoch from w.last_seen)::float8 as rank2
                         from wallets w where ${walletMatch}
                        order by exact desc, rank1 desc, rank2 desc, w.address limit ${offset + query.limit})`;
  const sides = [...(withTokens ? [tokens] : []), ...(withWallets ? [wallets] : [])];
  // Wallets only, and not an address: nothing can match.
  if (!sides.length) return { data: [], total: 0, page: query.page, limit: query.limit };
  const counts = sql`${withTokens ? sql`(select count(*) from tokens t where ${tokenMatch})` : sql`0`}
                   + ${withWallets ? sql`(select count(*) from wallets w where ${walletMatch})` : sql`0`}`;
  const [result] = (await db.execute(
    sql`select (${counts})::int as total, (select coalesce(json_agg(x), '[]') from (
          select * from (${sql.join(sides, sql` union all `)}) s
           order by s.side, s.exact desc, s.rank1 desc, s.rank2 desc, s.address
           offset ${offset} limit ${query.limit}) x) as rows`,
  )) as unknown as { total: number; rows: Row[] }[];
  const data = result.rows.map(
    (r): z.infer<typeof searchHit> =>
      r.type === "token"
        ? {
            type: "token",
            address: r.address,
            name: r.name ?? "",
            symbol: r.symbol ?? "",
            price_usd: r.price_usd ?? 0,
            liquidity_usd: round(r.liquidity_usd ?? 0, 2),
            volume_24h_usd: round(r.volume_24h_usd ?? 0, 2),
            matched: r.matched,
          }
        : {
            type: "wallet",
            address: r.address,
            classification: r.classification ?? "fresh",
            trade_count: r.trade_count ?? 0,
            last_seen: iso(new Date(r.last_seen ?? 0)),
            matched: r.matched,
          },
  );
  return { data, total: result.total, page: query.page, limit: query.limit };
}
