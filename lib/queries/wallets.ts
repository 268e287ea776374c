import { desc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { tokenMetrics, tokens, walletPositions, wallets, walletScores } from "@/db/schema";
import { iso, round, toUnits } from "./format";

export async function getWalletProfile(db: Db, address: string) {
  const value = sql<number>`(${walletPositions.quantity} / power(10::numeric, ${tokens.decimals}))::float8 * coalesce(${tokenMetrics.priceUsd}, 0)`;
  // The wallet and its holdings side by side: one round trip's wait instead of two.
  const [[w], holdings] = await Promise.all([
    db
      .select({
        wallet: wallets,
        reputationScore: walletScores.reputationScore,
        confidence: walletScores.confidence,
        classification: walletScores.classification,
      })
      .from(wallets)
      .leftJoin(walletScores, eq(walletScores.address, wallets.address))
      .where(eq(wallets.address, address)),
    db
      .select({
        tokenAddress: walletPositions.tokenAddress,
        symbol: tokens.symbol,
        decimals: tokens.decimals,
        quantity: walletPositions.quantity,
        valueUsd: value,
      })
      .from(walletPositions)
      .innerJoin(tokens, eq(tokens.address, walletPositions.tokenAddress))
      .leftJoin(tokenMetrics, eq(tokenMetrics.address, walletPositions.tokenAddress))
      .where(sql`${walletPositions.wallet} = ${address} and ${gt(walletPositions.quantity, "0")}`)
      .orderBy(desc(value), walletPositions.tokenAddress),
  ]);
  if (!w) return null;

  return {
    address: w.wallet.address,
    classification: w.classification ?? w.wallet.classification,
    reputation_score: round(w.reputationScore ?? 0, 1),
    reputation_confidence: w.confidence ?? "low",
    portfolio: holdings.map((h) => ({
      token_address: h.tokenAddress,
      token_symbol: h.symbol,
      quantity: toUnits(h.quantity, h.decimals),
      value_usd: round(h.valueUsd, 2),
    })),
    pnl_estimate_usd: round(w.wallet.pnlEstimateUsd, 2),
    pnl_confidence: w.wallet.pnlConfidence,
    sector_preference: w.wallet.sectorPreference,
    trade_count: w.wallet.tradeCount,
    first_seen: iso(w.wallet.firstSeen),
  };
}

export async function walletExists(db: Db, address: string): Promise<boolean> {
  const rows = await db.select({ a: wallets.address }).from(wallets).where(eq(wallets.address, address));
  return rows.length > 0;
}
