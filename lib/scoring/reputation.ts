/**
 * Wallet reputation: four dimensions (win_rate as a fraction, the others 0..100), their
 * confidence, and the weighted composite, which a low-confidence wallet cannot top the cap of.
 */
import { ramp, rampScore, shrunkRate, sum, toScore, weightedMean } from "./ramp";
import type { Confidence } from "./vocab";
import type { WalletPosition, WalletReputationInput } from "./wallet-input";
import {
  CONFIDENCE_RULE,
  CONSISTENCY,
  ENTRY_TIMING,
  REPUTATION_WEIGHTS,
  RISK_DRAWDOWN_NEUTRAL,
  RISK_DRAWDOWN_SCORE,
  WIN_RATE_PRIOR,
} from "./weights";

export type ReputationDimensions = {
  /** 0..1 (the API's documented exception to 0..100). */
  winRate: number;
  entryTimingScore: number;
  consistencyScore: number;
  riskDrawdownScore: number;
};

const closedOf = (positions: WalletPosition[]) => positions.filter((p) => p.closed);
const pnl = (p: WalletPosition) => p.realizedPnlUsd + p.unrealizedPnlUsd;

/** Share of closed positions with a realised profit, shrunk toward 0.5 for few trades. */
export function winRate(positions: WalletPosition[]): number {
  const closed = closedOf(positions);
  const wins = closed.filter((p) => p.realizedPnlUsd > 0).length;
  return shrunkRate(wins, closed.length, WIN_RATE_PRIOR.hits, WIN_RATE_PRIOR.n);
}

/**
 * How early the wallet gets into tokens, on a log time scale from full credit (first minute)
 * to none (a week later), weighted by USD bought. Sniping entries (first blocks) are left out:
 * they show a bot's speed, not judgement.
 */
export function entryTimingScore(positions: WalletPosition[]): number {
  const eligible = positions.filter(
    (p) => p.blocksAfterLaunch !== null && p.blocksAfterLaunch > ENTRY_TIMING.sniperMaxBlocks && p.secondsAfterLaunch !== null,
  );
  if (eligible.length === 0) return ENTRY_TIMING.neutralScore;
  const earliness = (seconds: number) =>
    ramp(
      Math.log10(Math.max(1, seconds)),
      Math.log10(ENTRY_TIMING.noCreditAfterSeconds),
      Math.log10(ENTRY_TIMING.fullCreditWithinSeconds),
    );
  return toScore(
    weightedMean(eligible.map((p) => ({ weight: Math.max(p.boughtUsd, 1), value: earliness(p.secondsAfterLaunch ?? 0) }))),
  );
}

/**
 * Share of periods (weeks) with a positive realised result, shrunk toward 0.5, reduced when
 * one winning trade makes most of the gross profit (a one-hit wonder is not consistent).
 */
export function consistencyScore(positions: WalletPosition[]): number {
  const closed = closedOf(positions).filter((p) => p.closedAt !== null);
  const byPeriod = new Map<number, number>();
  for (const p of closed) {
    const period = Math.floor((p.closedAt ?? 0) / CONSISTENCY.periodSeconds);
    byPeriod.set(period, (byPeriod.get(period) ?? 0) + p.realizedPnlUsd);
  }
  const results = [...byPeriod.values()];
  const positive = shrunkRate(results.filter((r) => r > 0).length, results.length, CONSISTENCY.prior.hits, CONSISTENCY.prior.n);
  const wins = closed.map((p) => p.realizedPnlUsd).filter((v) => v > 0);
  const topWinShare = wins.length ? Math.max(...wins) / sum(wins) : 0;
  const penalty = CONSISTENCY.oneHitPenalty * ramp(topWinShare, CONSISTENCY.oneHitFrom, CONSISTENCY.oneHitTo);
  return toScore(positive * (1 - penalty));
}

/** 100 = no capital lost and no rugged tokens; falls with losses per capital and the rug ratio. */
export function riskDrawdownScore(positions: WalletPosition[]): number {
  if (positions.length === 0) return RISK_DRAWDOWN_NEUTRAL;
  const deployed = sum(positions.map((p) => p.boughtUsd));
  const lost = sum(positions.map((p) => Math.max(0, -pnl(p))));
  const risk = rampScore(
    {
      loss_severity: deployed > 0 ? lost / deployed : null,
      rug_ratio: positions.filter((p) => p.tokenRugged && pnl(p) < 0).length / positions.length,
    },
    RISK_DRAWDOWN_SCORE,
  );
  return 100 - risk;
}

export function reputationDimensions(positions: WalletPosition[]): ReputationDimensions {
  return {
    winRate: winRate(positions),
    entryTimingScore: entryTimingScore(positions),
    consistencyScore: consistencyScore(positions),
    riskDrawdownScore: riskDrawdownScore(positions),
  };
}

/** The highest level whose every minimum is met: closed trades, history length, known cost. */
export function reputationConfidence(input: Pick<WalletReputationInput, "positions" | "firstSeen" | "now">): Confidence {
  const closed = closedOf(input.positions).length;
  const historyDays = (input.now - input.firstSeen) / 86_400;
  const knownCost = input.positions.length ? sum(input.positions.map((p) => p.knownCostShare)) / input.positions.length : 0;
  const meets = (m: { closedPositions: number; historyDays: number; knownCostShare: number }) =>
    closed >= m.closedPositions && historyDays >= m.historyDays && knownCost >= m.knownCostShare;
  if (meets(CONFIDENCE_RULE.high)) return "high";
  if (meets(CONFIDENCE_RULE.medium)) return "medium";
  return "low";
}

/** Σ wᵢ·dimensionᵢ (win_rate ×100), capped when confidence is low. */
export function compositeReputation(d: ReputationDimensions, confidence: Confidence): number {
  const W = REPUTATION_WEIGHTS;
  const score = weightedMean([
    { weight: W.win_rate, value: d.winRate * 100 },
    { weight: W.entry_timing_score, value: d.entryTimingScore },
    { weight: W.consistency_score, value: d.consistencyScore },
    { weight: W.risk_drawdown_score, value: d.riskDrawdownScore },
  ]);
  return confidence === "low" ? Math.min(score, CONFIDENCE_RULE.lowScoreCap) : score;
}
