import { asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { tokenMetrics, tokens, tokenScores } from "@/db/schema";
import { tokenFilterSql, type TokenFilter } from "@/lib/tokens/filter";
import { hoursSince, iso, round } from "./format";
import { topHolders } from "./holders";

export const TOKEN_SORTS = ["trending", "newest", "liquidity", "volume", "risk_asc"] as const;
export type TokenSort = (typeof TOKEN_SORTS)[number];

const ORDER: Record<TokenSort, SQL[]> = {
  trending: [desc(tokenMetrics.trendingScore), asc(tokenMetrics.address)],
  newest: [desc(tokenMetrics.createdAt), asc(tokenMetrics.address)],
  liquidity: [desc(tokenMetrics.liquidityUsd), asc(tokenMetrics.address)],
  volume: [desc(tokenMetrics.volume24hUsd), asc(tokenMetrics.address)],
  risk_asc: [asc(tokenMetrics.riskScore), asc(tokenMetrics.address)],
};

const tokenColumns = {
  address: tokenMetrics.address,
  name: tokens.name,
  symbol: tokens.symbol,
  marketCapUsd: tokenMetrics.marketCapUsd,
  volume24hUsd: tokenMetrics.volume24hUsd,
  liquidityUsd: tokenMetrics.liquidityUsd,
  holderCount: tokenMetrics.holderCount,
  createdAt: tokenMetrics.createdAt,
  riskScore: tokenMetrics.riskScore,
  riskFlags: tokenMetrics.riskFlags,
  aiSummary: sql<string>`coalesce(${tokenScores.aiSummary}, '')`,
  launchpad: tokens.launchpad,
};

type TokenRow = {
  address: string;
  name: string;
  symbol: string;
  marketCapUsd: number;
  volume24hUsd: number;
  liquidityUsd: number;
  holderCount: number;
  createdAt: Date;
  riskScore: number;
  riskFlags: string[];
  aiSummary: string;
  launchpad: string;
};

function toToken(r: TokenRow, now: Date) {
  return {
    address: r.address,
    name: r.name,
    symbol: r.symbol,
    market_cap_usd: round(r.marketCapUsd, 2),
    volume_24h_usd: round(r.volume24hUsd, 2),
    liquidity_usd: round(r.liquidityUsd, 2),
    holder_count: r.holderCount,
    age_hours: hoursSince(r.createdAt, now),
    risk_score: round(r.riskScore, 1),
    risk_flags: r.riskFlags,
    ai_summary: r.aiSummary,
    launchpad: r.launchpad,
  };
}
export type Token = ReturnType<typeof toToken>;

export type TokenListQuery = { filter: TokenFilter; sort: TokenSort; page: number; limit: number };

export async function listTokens(db: Db, q: TokenListQuery, now: Date) {
  const where = tokenFilterSql(q.filter, now);
  // Page the narrow read model first, then join the wide columns for the page only.
  const page = db
    .select({ address: tokenMetrics.address })
    .from(tokenMetrics)
    .where(where)
    .orderBy(...ORDER[q.sort])
    .limit(q.limit)
    .offset((q.page - 1) * q.limit)
    .as("page");
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(tokenColumns)
      .from(page)
      .innerJoin(tokenMetrics, eq(tokenMetrics.address, page.address))
      .innerJoin(tokens, eq(tokens.address, page.address))
      .leftJoin(tokenScores, eq(tokenScores.address, page.address))
      .orderBy(...ORDER[q.sort]),
    db.select({ total: count() }).from(tokenMetrics).where(where),
  ]);
  return { data: rows.map((r) => toToken(r, now)), total };
}

export async function getTokenProfile(db: Db, address: string, now: Date) {
  const [row] = await db
    .select({ ...tokenColumns, totalSupply: tokens.totalSupply, decimals: tokens.decimals })
    .from(tokenMetrics)
    .innerJoin(tokens, eq(tokens.address, tokenMetrics.address))
    .leftJoin(tokenScores, eq(tokenScores.address, tokenMetrics.address))
    .where(eq(tokenMetrics.address, address));
  if (!row) return null;
  return {
    ...toToken(row, now),
    top_holders: await topHolders(db, address, row.totalSupply, row.decimals, now),
    created_at: iso(row.createdAt),
  };
}
