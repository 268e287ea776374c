import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { syncState, tokenMetrics, tokens, tokenScores } from "@/db/schema";
import type { TokenFilter } from "@/lib/tokens/filter";
import { hoursSince, iso, round } from "./format";
import { topHolders } from "./holders";
import { queryTokenList, type TokenSort } from "./token-list-index";

export { TOKEN_SORTS, type TokenSort } from "./token-list-index";

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

/** The data version that keys the list index, for callers without one from the auth round trip. */
async function currentDataVersion(db: Db): Promise<number> {
  const [row] = await db.select({ v: syncState.dataVersion }).from(syncState).limit(1);
  return row?.v ?? 0;
}

export async function listTokens(db: Db, q: TokenListQuery, now: Date, dataVersion?: number) {
  const { addresses, total } = await queryTokenList(db, dataVersion ?? (await currentDataVersion(db)), q, now);
  if (!addresses.length) return { data: [], total };
  const rows = await db
    .select(tokenColumns)
    .from(tokenMetrics)
    .innerJoin(tokens, eq(tokens.address, tokenMetrics.address))
    .leftJoin(tokenScores, eq(tokenScores.address, tokenMetrics.address))
    .where(inArray(tokenMetrics.address, addresses));
  const byAddress = new Map(rows.map((r) => [r.address, r]));
  // A token deleted since the index was built (a reorg) drops out of this page.
  const data = addresses.flatMap((a) => {
    const row = byAddress.get(a);
    return row ? [toToken(row, now)] : [];
  });
  return { data, total };
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
