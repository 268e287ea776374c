import { eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { tokenScores, walletPositionCounts, walletScores } from "@/db/schema";
import type { tokenScore, walletScore } from "@/lib/api/schemas/scores";
import type { MissingSignal } from "@/lib/domain/vocab";
import { explainBreakdown } from "@/lib/scoring/composite";
import { averageReputation } from "@/lib/scoring/holder-summary";
import { REPUTATION_NO_EVIDENCE, RISK_NO_EVIDENCE, withNoEvidence } from "@/lib/scoring/no-evidence";
import { REPUTATION_DIMENSION_GAPS } from "@/lib/scoring/reputation";
import { RISK_DIMENSION_GAPS, tokenConfidence } from "@/lib/scoring/risk";
import { REPUTATION_WEIGHTS, RISK_WEIGHTS } from "@/lib/scoring/weights";
import { iso, round } from "./format";

/** A dimension at the published precision, or null without data (served as its no-evidence value). */
const dimension = (v: number | null, digits = 1) => (v === null ? null : round(v, digits));

export async function getTokenScore(db: Db, address: string): Promise<z.infer<typeof tokenScore> | null> {
  const [s] = await db.select().from(tokenScores).where(eq(tokenScores.address, address));
  if (!s) return null;
  // The holders' reputations as they are now, not as of the token's last scoring.
  const reputations =
    s.reputationHolders.length === 0
      ? []
      : await db
          .select({ score: walletScores.reputationScore })
          .from(walletScores)
          .where(inArray(walletScores.address, s.reputationHolders));
  const dimensions = {
    holder_concentration_score: dimension(s.holderConcentrationScore),
    liquidity_stability_score: dimension(s.liquidityStabilityScore),
    wash_trade_score: dimension(s.washTradeScore),
    smart_money_flow_score: dimension(s.smartMoneyFlowScore),
  };
  const breakdown = explainBreakdown(RISK_WEIGHTS, dimensions, RISK_DIMENSION_GAPS);
  return {
    address: s.address,
    risk_score: round(s.riskScore, 1),
    risk_level: s.riskLevel,
    confidence: tokenConfidence(dimensions),
    flags: s.flags,
    dimensions: withNoEvidence(dimensions, RISK_NO_EVIDENCE),
    weights: breakdown.weights,
    weighted_score: breakdown.weightedScore,
    adjustments: s.adjustments,
    missing_dimensions: breakdown.missingDimensions,
    signals_missing: s.signalsMissing as MissingSignal[],
    top_holder_summary: {
      early_mover_count: s.earlyMoverCount,
      early_mover_net_activity: s.earlyMoverNetActivity,
      avg_reputation_top10: round(averageReputation(reputations.map((r) => r.score)), 1),
    },
    flag_evidence: s.flagEvidence,
    method_version: s.methodVersion,
    updated_at: iso(s.updatedAt),
  };
}

export async function getWalletScore(db: Db, address: string): Promise<z.infer<typeof walletScore> | null> {
  // The position counts as the positions list reads them (db/functions/position-counts.sql), in the same snapshot.
  const [row] = await db
    .select({ s: walletScores, counts: { total: walletPositionCounts.total, open: walletPositionCounts.open } })
    .from(walletScores)
    .leftJoin(walletPositionCounts, eq(walletPositionCounts.wallet, walletScores.address))
    .where(eq(walletScores.address, address));
  if (!row) return null;
  const { s, counts } = row;
  const dimensions = {
    win_rate: dimension(s.winRate, 4),
    entry_timing_score: dimension(s.entryTimingScore),
    consistency_score: dimension(s.consistencyScore),
    risk_drawdown_score: dimension(s.riskDrawdownScore),
  };
  // The composite takes win_rate ×100.
  const breakdown = explainBreakdown(
    REPUTATION_WEIGHTS,
    { ...dimensions, win_rate: dimensions.win_rate === null ? null : dimensions.win_rate * 100 },
    REPUTATION_DIMENSION_GAPS,
  );
  return {
    address: s.address,
    reputation_score: round(s.reputationScore, 1),
    confidence: s.confidence,
    classification: s.classification,
    dimensions: withNoEvidence(dimensions, REPUTATION_NO_EVIDENCE),
    weights: breakdown.weights,
    weighted_score: breakdown.weightedScore,
    adjustments: s.adjustments,
    missing_dimensions: breakdown.missingDimensions,
    closed_positions: counts ? counts.total - counts.open : 0,
    // wallet_scores.closed_positions is the scorer's count: closed positions and those sold down to dust.
    closed_trades: s.closedPositions,
    trade_count: s.tradeCount,
    method_version: s.methodVersion,
    updated_at: iso(s.updatedAt),
  };
}
