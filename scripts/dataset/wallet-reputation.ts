import type { WalletStats } from "./wallet-stats";

/**
 * Provisional wallet reputation (method "dataset-1", after shared/research/scoring.md): win rate
 * shrunk toward one half, entry timing, consistency (penalizing one lucky hit) and drawdown,
 * weighted 0.35 / 0.25 / 0.2 / 0.2; a low-confidence score is capped at 60.
 */

export type Confidence = "low" | "medium" | "high";
export type WalletReputation = {
  winRate: number;
  entryTiming: number;
  consistency: number;
  riskDrawdown: number;
  reputation: number;
  confidence: Confidence;
  pnlConfidence: Confidence;
};

const DAY_MS = 86_400_000;
const ramp = (x: number, a: number, b: number) => Math.min(1, Math.max(0, (x - a) / (b - a)));
const round1 = (x: number) => Math.round(x * 10) / 10;

export function walletReputation(s: WalletStats, w: number): WalletReputation {
  const closed = s.closed[w];
  const wins = s.wins[w];
  const winRate = (wins + 2) / (closed + 4);
  const entryTiming = 100 * (s.entryCount[w] ? s.entrySum[w] / s.entryCount[w] : 0.5);
  const oneHit = s.winSum[w] > 0 ? s.winMax[w] / s.winSum[w] : 1;
  const consistency = closed ? 100 * (0.5 * (wins / closed) + 0.5 * (1 - oneHit)) : 50;
  const riskDrawdown = 100 * (1 - ramp(s.worstLoss[w], 0.1, 0.9));

  const spanDays = (s.lastSeen[w] - s.firstSeen[w]) / DAY_MS;
  const costed = s.boughtUsd[w] + s.unknownCostUsd[w];
  const knownShare = costed > 0 ? s.boughtUsd[w] / costed : 0;
  const confidence: Confidence =
    closed >= 20 && spanDays >= 3 && knownShare >= 0.8 ? "high" : closed >= 8 && spanDays >= 1 && knownShare >= 0.5 ? "medium" : "low";
  const pnlConfidence: Confidence = knownShare >= 0.9 && s.trades[w] >= 10 ? "high" : knownShare >= 0.6 && s.trades[w] >= 3 ? "medium" : "low";

  const composite = 0.35 * 100 * winRate + 0.25 * entryTiming + 0.2 * consistency + 0.2 * riskDrawdown;
  return {
    winRate: Math.round(winRate * 1e4) / 1e4,
    entryTiming: round1(entryTiming),
    consistency: round1(consistency),
    riskDrawdown: round1(riskDrawdown),
    reputation: round1(confidence === "low" ? Math.min(60, composite) : composite),
    confidence,
    pnlConfidence,
  };
}
