/**
 * Wallet reputation: four dimensions (win_rate as a fraction, the others 0..100; null without
 * data), their confidence, and the weighted composite with its named bounds: a wallet with nothing
 * to judge is neutral, not the worst record; a low-confidence wallet cannot look excellent; a
 * rugger or a dumping insider cannot look trustworthy.
 */

import type { Confidence, MissingReason, ReputationDimension, WalletAdjustmentReason } from "@/lib/domain/vocab";
import {
  type Adjustment,
  type Composite,
  composite,
  missingDimensions,
  publishedScore as published,
} from "./composite";
import { ramp, rampScore, shrunkRate, sum, toScore, weightedMean } from "./ramp";
import type { WalletPosition, WalletReputationInput } from "./wallet-input";
import {
  CONFIDENCE_RULE,
  CONSISTENCY,
  ENTRY_TIMING,
  INSIDER_DUMP,
  MIN_CLOSED_POSITIONS,
  REPUTATION_CAPS,
  REPUTATION_FLOORS,
  REPUTATION_WEIGHTS,
  RISK_DRAWDOWN_SCORE,
  WIN_RATE_PRIOR,
} from "./weights";

/** win_rate is a fraction 0..1 (the API's documented exception to 0..100); null = not enough data. */
export type ReputationDimensions = Record<ReputationDimension, number | null>;

/** How each reputation dimension can lack data. */
export const REPUTATION_DIMENSION_GAPS: Record<ReputationDimension, MissingReason> = {
  win_rate: "too_few_closed_positions",
  entry_timing_score: "no_timed_entries",
  consistency_score: "too_few_closed_weeks",
  risk_drawdown_score: "no_positions",
};

const closedOf = (positions: WalletPosition[]) => positions.filter((p) => p.closed);
const pnl = (p: WalletPosition) => p.realizedPnlUsd + p.unrealizedPnlUsd;

/**
 * Share of closed positions with a realised profit, shrunk toward 0.5; null below
 * MIN_CLOSED_POSITIONS, where it would say more about the prior than about the wallet.
 */
export function winRate(positions: WalletPosition[]): number | null {
  const closed = closedOf(positions);
  if (closed.length < MIN_CLOSED_POSITIONS) return null;
  const wins = closed.filter((p) => p.realizedPnlUsd > 0).length;
  return shrunkRate(wins, closed.length, WIN_RATE_PRIOR.hits, WIN_RATE_PRIOR.n);
}

/**
 * How early the wallet gets into tokens, on a log time scale from full credit (first minute)
 * to none (a week later), weighted by USD bought. Sniping entries (first blocks) are left out:
 * they show a bot's speed, not judgement. Null without an entry left to judge.
 */
export function entryTimingScore(positions: WalletPosition[]): number | null {
  const eligible = positions.filter(
    (p) =>
      p.blocksAfterLaunch !== null &&
      p.blocksAfterLaunch > ENTRY_TIMING.sniperMaxBlocks &&
      p.secondsAfterLaunch !== null,
  );
  if (eligible.length === 0) return null;
  const earliness = (seconds: number) =>
    ramp(
      Math.log10(Math.max(1, seconds)),
      Math.log10(ENTRY_TIMING.noCreditAfterSeconds),
      Math.log10(ENTRY_TIMING.fullCreditWithinSeconds),
    );
  return toScore(
    weightedMean(
      eligible.map((p) => ({ weight: Math.max(p.boughtUsd, 1), value: earliness(p.secondsAfterLaunch ?? 0) })),
    ),
  );
}

/**
 * Share of periods (weeks, counted back from `now`) with a positive realised result, shrunk
 * toward 0.5, reduced when one winning trade makes most of the gross profit (a one-hit wonder is
 * not consistent). Null with closed trades in fewer than CONSISTENCY.minPeriods weeks: one week
 * has nothing to be consistent with.
 */
export function consistencyScore(positions: WalletPosition[], now: number): number | null {
  const closed = closedOf(positions).filter((p) => p.closedAt !== null);
  const byPeriod = new Map<number, number>();
  for (const p of closed) {
    // Weeks back from the head, not calendar weeks: a history gives the same weeks wherever it is placed in time.
    const period = Math.floor((now - (p.closedAt ?? now)) / CONSISTENCY.periodSeconds);
    byPeriod.set(period, (byPeriod.get(period) ?? 0) + p.realizedPnlUsd);
  }
  if (byPeriod.size < CONSISTENCY.minPeriods) return null;
  const results = [...byPeriod.values()];
  const positive = shrunkRate(
    results.filter((r) => r > 0).length,
    results.length,
    CONSISTENCY.prior.hits,
    CONSISTENCY.prior.n,
  );
  const wins = closed.map((p) => p.realizedPnlUsd).filter((v) => v > 0);
  const topWinShare = wins.length ? Math.max(...wins) / sum(wins) : 0;
  const penalty = CONSISTENCY.oneHitPenalty * ramp(topWinShare, CONSISTENCY.oneHitFrom, CONSISTENCY.oneHitTo);
  return toScore(positive * (1 - penalty));
}

/**
 * 100 = no capital lost and no rugged tokens; falls with losses per capital and the rug ratio. Null without
 * positions.
 */
export function riskDrawdownScore(positions: WalletPosition[]): number | null {
  if (positions.length === 0) return null;
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

const publishedFraction = (v: number | null) => (v === null ? null : Math.round(v * 1e4) / 1e4);

/** The four dimensions at the published precision (win_rate to 4 decimals, the others to one). */
export function reputationDimensions(positions: WalletPosition[], now: number): ReputationDimensions {
  return {
    win_rate: publishedFraction(winRate(positions)),
    entry_timing_score: published(entryTimingScore(positions)),
    consistency_score: published(consistencyScore(positions, now)),
    risk_drawdown_score: published(riskDrawdownScore(positions)),
  };
}

/** The highest level whose every minimum is met: closed trades, history length, known cost. */
export function reputationConfidence(
  input: Pick<WalletReputationInput, "positions" | "firstSeen" | "now">,
): Confidence {
  const closed = closedOf(input.positions).length;
  const historyDays = (input.now - input.firstSeen) / 86_400;
  const knownCost = input.positions.length
    ? sum(input.positions.map((p) => p.knownCostShare)) / input.positions.length
    : 0;
  const meets = (m: { closedPositions: number; historyDays: number; knownCostShare: number }) =>
    closed >= m.closedPositions && historyDays >= m.historyDays && knownCost >= m.knownCostShare;
  if (meets(CONFIDENCE_RULE.high)) return "high";
  if (meets(CONFIDENCE_RULE.medium)) return "medium";
  return "low";
}

export type Conduct = Pick<WalletReputationInput, "positions" | "pulledOwnLaunchLiquidity">;

type Reason = WalletAdjustmentReason;
type Floor = keyof typeof REPUTATION_FLOORS;
type Cap = keyof typeof REPUTATION_CAPS;

/**
 * The bounds the record sets: the neutral floor of nothing to judge; the caps of low confidence,
 * a pulled launch of its own, an insider's dump (a cap wins over the floor).
 */
function adjustments(d: ReputationDimensions, confidence: Confidence, conduct: Conduct): Adjustment<Reason>[] {
  const dumped = conduct.positions.some((p) => p.insider && p.soldShare >= INSIDER_DUMP.minSoldShare);
  const applies: Record<Reason, boolean> = {
    no_record: Object.values(d).every((v) => v === null),
    low_confidence: confidence === "low",
    pulled_own_launch_liquidity: conduct.pulledOwnLaunchLiquidity.length > 0,
    insider_dump: dumped,
  };
  const floors = (Object.keys(REPUTATION_FLOORS) as Floor[]).filter((r) => applies[r]);
  const caps = (Object.keys(REPUTATION_CAPS) as Cap[]).filter((r) => applies[r]);
  return [
    ...floors.map((reason) => ({ reason, min_score: REPUTATION_FLOORS[reason] })),
    ...caps.map((reason) => ({ reason, max_score: REPUTATION_CAPS[reason] })),
  ];
}

/** Σ wᵢ·dimensionᵢ over the dimensions with data (win_rate ×100), raised to its floor, then held to its caps. */
export function compositeReputation(
  d: ReputationDimensions,
  confidence: Confidence,
  conduct: Conduct,
): Composite<WalletAdjustmentReason> {
  const values = { ...d, win_rate: d.win_rate === null ? null : d.win_rate * 100 };
  return composite(REPUTATION_WEIGHTS, values, adjustments(d, confidence, conduct));
}

export const reputationMissing = (d: ReputationDimensions) => missingDimensions(d, REPUTATION_DIMENSION_GAPS);
