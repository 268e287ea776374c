import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { tokenScores, walletScores } from "@/db/schema";
import { iso, round } from "./format";

export async function getTokenScore(db: Db, address: string) {
  const [s] = await db.select().from(tokenScores).where(eq(tokenScores.address, address));
  if (!s) return null;
  return {
    address: s.address,
    risk_score: round(s.riskScore, 1),
    risk_level: s.riskLevel,
    flags: s.flags,
    dimensions: {
      holder_concentration_score: round(s.holderConcentrationScore, 1),
      liquidity_stability_score: round(s.liquidityStabilityScore, 1),
      wash_trade_score: round(s.washTradeScore, 1),
      smart_money_flow_score: round(s.smartMoneyFlowScore, 1),
    },
    top_holder_summary: {
      early_mover_count: s.earlyMoverCount,
      early_mover_net_activity: s.earlyMoverNetActivity,
      avg_reputation_top10: round(s.avgReputationTop10, 1),
    },
    flag_evidence: s.flagEvidence,
    method_version: s.methodVersion,
    updated_at: iso(s.updatedAt),
  };
}

export async function getWalletScore(db: Db, address: string) {
  const [s] = await db.select().from(walletScores).where(eq(walletScores.address, address));
  if (!s) return null;
  return {
    address: s.address,
    reputation_score: round(s.reputationScore, 1),
    confidence: s.confidence,
    classification: s.classification,
    dimensions: {
      win_rate: round(s.winRate, 4),
      entry_timing_score: round(s.entryTimingScore, 1),
      consistency_score: round(s.consistencyScore, 1),
      risk_drawdown_score: round(s.riskDrawdownScore, 1),
    },
    trade_count: s.tradeCount,
    method_version: s.methodVersion,
    updated_at: iso(s.updatedAt),
  };
}
