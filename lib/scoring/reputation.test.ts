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
import { METHOD_VERSION } from "./weights";

const wins = (n: number) => Array.from({ length: n }, () => position());
const losses = (n: number) => Array.from({ length: n }, () => position({ realizedPnlUsd: -300, soldUsd: 700 }));

describe("win_rate", () => {
  it("is a fraction shrunk toward one half for few trades", () => {
    expect(winRate([])).toBe(0.5);
    expect(winRate(wins(1))).toBeCloseTo(3 / 5);
    expect(winRate([...wins(45), ...losses(5)])).toBeCloseTo(47 / 54);
    expect(winRate([...wins(3), position({ closed: false, realizedPnlUsd: 0 })])).toBeCloseTo(5 / 7);
  });
});

describe("entry_timing_score", () => {
  it("credits early entries on a log scale and leaves sniping out", () => {
    const early = entryTimingScore([position({ secondsAfterLaunch: 60 })]);
    const hour = entryTimingScore([position({ secondsAfterLaunch: 3_600 })]);
    const late = entryTimingScore([position({ secondsAfterLaunch: 30 * DAY })]);
    expect(early).toBe(100);
    expect(hour).toBeGreaterThan(late);
    expect(hour).toBeLessThan(early);
    expect(late).toBe(0);
    expect(entryTimingScore([position({ blocksAfterLaunch: 1, secondsAfterLaunch: 2 })])).toBe(50);
    expect(entryTimingScore([position({ blocksAfterLaunch: null, secondsAfterLaunch: null })])).toBe(50);
  });
});

describe("consistency_score", () => {
  it("rewards profit spread over many weeks and penalises a one-hit wonder", () => {
    const steady = Array.from({ length: 10 }, (_, i) => position({ realizedPnlUsd: 100, closedAt: NOW - i * 7 * DAY }));
    const oneHit = [
      position({ realizedPnlUsd: 10_000, closedAt: NOW }),
      ...Array.from({ length: 9 }, (_, i) => position({ realizedPnlUsd: -50, closedAt: NOW - (i + 1) * 7 * DAY })),
    ];
    expect(consistencyScore(steady)).toBeGreaterThan(80);
    expect(consistencyScore(oneHit)).toBeLessThan(15);
    expect(consistencyScore([])).toBe(50);
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
    expect(riskDrawdownScore([])).toBe(50);
  });
});

describe("confidence", () => {
  it("grows with closed trades and known cost; high also needs a long record", () => {
    const base = { now: NOW, firstSeen: NOW - 60 * DAY };
    expect(reputationConfidence({ ...base, positions: wins(25) })).toBe("high");
    expect(reputationConfidence({ ...base, positions: wins(10) })).toBe("medium");
    expect(reputationConfidence({ ...base, positions: wins(25).map((p) => ({ ...p, knownCostShare: 0.6 })) })).toBe("medium");
    expect(reputationConfidence({ ...base, positions: wins(25).map((p) => ({ ...p, knownCostShare: 0.4 })) })).toBe("low");
    // A busy day is evidence enough for medium, not for high.
    expect(reputationConfidence({ ...base, firstSeen: NOW - DAY / 2, positions: wins(25) })).toBe("medium");
    expect(reputationConfidence({ ...base, positions: wins(5) })).toBe("medium");
    expect(reputationConfidence({ ...base, positions: wins(4) })).toBe("low");
  });
});

describe("reputation_score", () => {
  const d = { winRate: 0.9, entryTimingScore: 40, consistencyScore: 70, riskDrawdownScore: 100 };

  it("is the weighted sum of the dimensions with win_rate ×100, not their mean", () => {
    const expected = 0.35 * 90 + 0.25 * 40 + 0.2 * 70 + 0.2 * 100;
    expect(compositeReputation(d, "high")).toBeCloseTo(expected);
    expect(compositeReputation(d, "high")).not.toBeCloseTo((90 + 40 + 70 + 100) / 4);
  });

  it("is capped at 60 with low confidence", () => {
    expect(compositeReputation(d, "low")).toBe(60);
  });

  it("comes out in the shape of wallet_scores, every dimension in range", () => {
    const result = scoreWallet(wallet());
    expect(result.methodVersion).toBe(METHOD_VERSION);
    expect(result.tradeCount).toBe(30);
    expect(result.confidence).toBe("medium");
    expect(result.winRate).toBeGreaterThan(0);
    expect(result.winRate).toBeLessThan(1);
    for (const v of [result.reputationScore, result.entryTimingScore, result.consistencyScore, result.riskDrawdownScore]) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(100);
    }
  });
});
