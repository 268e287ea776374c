import { describe, expect, it } from "vitest";
import { NOW } from "./__fixtures__/token";
import { DAY, position, wallet } from "./__fixtures__/wallet";
import {
  compositeReputation,
  consistencyScore,
  entryTimingScore,
  reputationConfidence,
  riskDrawdownScore,
  winRate,
} from "./reputation";
import { scoreWallet } from "./wallet-score";
import { INSIDER_DUMP, METHOD_VERSION, MIN_CLOSED_POSITIONS, REPUTATION_CAPS, REPUTATION_FLOORS } from "./weights";

const wins = (n: number) => Array.from({ length: n }, () => position());
const losses = (n: number) => Array.from({ length: n }, () => position({ realizedPnlUsd: -300, soldUsd: 700 }));

describe("win_rate", () => {
  it("is a fraction shrunk toward one half", () => {
    expect(winRate(wins(5))).toBeCloseTo(7 / 9);
    expect(winRate([...wins(45), ...losses(5)])).toBeCloseTo(47 / 54);
    expect(winRate([...wins(5), position({ closed: false, realizedPnlUsd: 0 })])).toBeCloseTo(7 / 9);
  });

  it("is unknown below the minimum of closed positions, not 50%", () => {
    expect(winRate([])).toBeNull();
    expect(winRate(wins(1))).toBeNull();
    expect(winRate(wins(MIN_CLOSED_POSITIONS - 1))).toBeNull();
  });
});

describe("entry_timing_score", () => {
  it("credits early entries on a log scale and leaves sniping out", () => {
    const early = entryTimingScore([position({ secondsAfterLaunch: 60 })]);
    const hour = entryTimingScore([position({ secondsAfterLaunch: 3_600 })]);
    const late = entryTimingScore([position({ secondsAfterLaunch: 30 * DAY })]);
    expect(early).toBe(100);
    expect(hour).toBeGreaterThan(late!);
    expect(hour).toBeLessThan(early!);
    expect(late).toBe(0);
    expect(entryTimingScore([position({ blocksAfterLaunch: 1, secondsAfterLaunch: 2 })])).toBeNull();
    expect(entryTimingScore([position({ blocksAfterLaunch: null, secondsAfterLaunch: null })])).toBeNull();
  });
});

describe("consistency_score", () => {
  it("rewards profit spread over many weeks and penalises a one-hit wonder", () => {
    const steady = Array.from({ length: 10 }, (_, i) => position({ realizedPnlUsd: 100, closedAt: NOW - i * 7 * DAY }));
    const oneHit = [
      position({ realizedPnlUsd: 10_000, closedAt: NOW }),
      ...Array.from({ length: 9 }, (_, i) => position({ realizedPnlUsd: -50, closedAt: NOW - (i + 1) * 7 * DAY })),
    ];
    expect(consistencyScore(steady, NOW)).toBeGreaterThan(80);
    expect(consistencyScore(oneHit, NOW)).toBeLessThan(15);
  });

  it("is unknown until closed trades span two weeks, counted back from now", () => {
    expect(consistencyScore([], NOW)).toBeNull();
    const oneWeek = [position({ closedAt: NOW - DAY }), position({ closedAt: NOW - 6 * DAY })];
    expect(consistencyScore(oneWeek, NOW)).toBeNull();
    expect(consistencyScore([...oneWeek, position({ closedAt: NOW - 8 * DAY })], NOW)).not.toBeNull();
    // The same record read at another time of the week gives the same weeks.
    const shifted = (dt: number) =>
      consistencyScore(
        [...oneWeek, position({ closedAt: NOW - 8 * DAY })].map((p) => ({ ...p, closedAt: p.closedAt! + dt })),
        NOW + dt,
      );
    expect(shifted(3 * DAY)).toBe(shifted(0));
  });
});

describe("risk_drawdown_score", () => {
  it("falls with capital lost and with positions lost to rugs", () => {
    expect(riskDrawdownScore(wins(5))).toBe(100);
    expect(riskDrawdownScore(losses(5))).toBeLessThan(100);
    // Out with a profit before the rug: judgement, not exposure.
    expect(riskDrawdownScore(wins(5).map((p) => ({ ...p, tokenRugged: true })))).toBe(100);
    const caught = position({ realizedPnlUsd: -10, soldUsd: 990, tokenRugged: true });
    expect(riskDrawdownScore([...wins(4), caught])).toBeCloseTo(100 - 100 * 0.4 * 0.25);
    expect(riskDrawdownScore([position({ realizedPnlUsd: -1_000, tokenRugged: true })])).toBe(0);
    expect(riskDrawdownScore([])).toBeNull();
  });
});

describe("confidence", () => {
  it("grows with closed trades and known cost; high also needs a long record", () => {
    const base = { now: NOW, firstSeen: NOW - 60 * DAY };
    expect(reputationConfidence({ ...base, positions: wins(25) })).toBe("high");
    expect(reputationConfidence({ ...base, positions: wins(10) })).toBe("medium");
    expect(reputationConfidence({ ...base, positions: wins(25).map((p) => ({ ...p, knownCostShare: 0.6 })) })).toBe(
      "medium",
    );
    expect(reputationConfidence({ ...base, positions: wins(25).map((p) => ({ ...p, knownCostShare: 0.4 })) })).toBe(
      "low",
    );
    // A busy day is evidence enough for medium, not for high.
    expect(reputationConfidence({ ...base, firstSeen: NOW - DAY / 2, positions: wins(25) })).toBe("medium");
    expect(reputationConfidence({ ...base, positions: wins(5) })).toBe("medium");
    expect(reputationConfidence({ ...base, positions: wins(4) })).toBe("low");
  });
});

describe("reputation_score", () => {
  const d = { win_rate: 0.9, entry_timing_score: 40, consistency_score: 70, risk_drawdown_score: 100 };
  const clean = { positions: wins(10), pulledOwnLaunchLiquidity: [] };

  it("is the weighted sum of the dimensions with win_rate ×100, not their mean", () => {
    const expected = 0.35 * 90 + 0.25 * 40 + 0.2 * 70 + 0.2 * 100;
    expect(compositeReputation(d, "high", clean).score).toBeCloseTo(expected, 1);
    expect(compositeReputation(d, "high", clean).score).not.toBeCloseTo((90 + 40 + 70 + 100) / 4);
  });

  it("shares out the weight of a dimension without data", () => {
    const noTiming = { ...d, entry_timing_score: null };
    expect(compositeReputation(noTiming, "high", clean).score).toBeCloseTo(
      (0.35 * 90 + 0.2 * 70 + 0.2 * 100) / 0.75,
      1,
    );
  });

  it("is capped at 60 with low confidence, and says so", () => {
    expect(compositeReputation(d, "low", clean)).toEqual({
      weighted: 75.5,
      score: REPUTATION_CAPS.low_confidence,
      adjustments: [{ reason: "low_confidence", max_score: REPUTATION_CAPS.low_confidence }],
    });
  });

  it("cannot pass 30 for a wallet that pulled its own launch's liquidity or dumped as an insider", () => {
    const rugger = compositeReputation(d, "high", { ...clean, pulledOwnLaunchLiquidity: ["0xtoken"] });
    expect(rugger.score).toBeLessThanOrEqual(30);
    expect(rugger.adjustments).toEqual([
      { reason: "pulled_own_launch_liquidity", max_score: REPUTATION_CAPS.pulled_own_launch_liquidity },
    ]);
    const dump = position({ insider: true, soldShare: INSIDER_DUMP.minSoldShare });
    const insider = compositeReputation(d, "high", { ...clean, positions: [...wins(10), dump] });
    expect(insider.score).toBeLessThanOrEqual(30);
    expect(insider.adjustments).toEqual([{ reason: "insider_dump", max_score: REPUTATION_CAPS.insider_dump }]);
    // An insider still holding most of its allocation has dumped nothing.
    const holding = position({ insider: true, soldShare: 0.2 });
    expect(compositeReputation(d, "high", { ...clean, positions: [...wins(10), holding] }).adjustments).toEqual([]);
  });

  it("is neutral, not 0, with nothing to judge, and says why; the caps still win", () => {
    const nothing = { win_rate: null, entry_timing_score: null, consistency_score: null, risk_drawdown_score: null };
    const neutral = { reason: "no_record", min_score: REPUTATION_FLOORS.no_record };
    expect(compositeReputation(nothing, "low", { positions: [], pulledOwnLaunchLiquidity: [] })).toEqual({
      weighted: 0,
      score: REPUTATION_FLOORS.no_record,
      adjustments: [neutral, { reason: "low_confidence", max_score: REPUTATION_CAPS.low_confidence }],
    });
    const rugger = compositeReputation(nothing, "low", { positions: [], pulledOwnLaunchLiquidity: ["0xtoken"] });
    expect(rugger.score).toBe(REPUTATION_CAPS.pulled_own_launch_liquidity);
    expect(rugger.adjustments).toContainEqual(neutral);
    // A record of any kind is judged on what it shows: a total loss is not lifted to neutral.
    const lost = { ...nothing, risk_drawdown_score: 0 };
    expect(compositeReputation(lost, "low", { positions: losses(1), pulledOwnLaunchLiquidity: [] }).score).toBe(0);
  });

  it("comes out in the shape of wallet_scores, every dimension in range", () => {
    const result = scoreWallet(wallet());
    expect(result.methodVersion).toBe(METHOD_VERSION);
    expect(result.tradeCount).toBe(30);
    expect(result.closedPositions).toBe(12);
    expect(result.confidence).toBe("medium");
    expect(result.dimensions.win_rate).toBeGreaterThan(0);
    expect(result.dimensions.win_rate).toBeLessThan(1);
    expect(result.missingDimensions).toEqual([]);
    for (const v of [
      result.reputationScore,
      result.dimensions.entry_timing_score,
      result.dimensions.consistency_score,
      result.dimensions.risk_drawdown_score,
    ]) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(100);
    }
  });

  it("gives a wallet without positions the neutral score at low confidence, every dimension said missing", () => {
    const result = scoreWallet(wallet({ positions: [], trades: [], tradeCount: 0, linkedToCreator: true }));
    const neutral = { reputationScore: REPUTATION_FLOORS.no_record, weightedScore: 0 };
    expect(result).toMatchObject({ ...neutral, confidence: "low", classification: "insider" });
    const reasons = ["too_few_closed_positions", "no_timed_entries", "too_few_closed_weeks", "no_positions"];
    expect(result.missingDimensions.map((m) => m.reason)).toEqual(reasons);
  });

  it("says which dimensions a short record lacks", () => {
    const result = scoreWallet(wallet({ positions: [position({ blocksAfterLaunch: 2 })] }));
    expect(result.dimensions.win_rate).toBeNull();
    expect(result.dimensions.entry_timing_score).toBeNull();
    expect(result.missingDimensions).toEqual([
      { dimension: "win_rate", reason: "too_few_closed_positions" },
      { dimension: "entry_timing_score", reason: "no_timed_entries" },
      { dimension: "consistency_score", reason: "too_few_closed_weeks" },
    ]);
  });
});
