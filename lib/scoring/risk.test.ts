import { describe, expect, it } from "vitest";
import { addr, healthyToken, HEAD_BLOCK, holder, LAUNCH_BLOCK, liquidityChange, rng, SUPPLY, swap, timeOf } from "./__fixtures__/token";
import { compositeRisk, riskLevel, scoreTokenRisk, type RiskDimensions } from "./risk";
import type { TokenRiskInput } from "./token-input";
import { RISK_FLAGS, type RiskFlag } from "./vocab";
import { METHOD_VERSION, NEW_TOKEN, RISK_FLOORS, RISK_WEIGHTS, SEVERE_DIMENSION } from "./weights";

/** Findings of a token past its first day. */
const old = (flags: RiskFlag[]) => ({ flags, ageSeconds: 30 * 86_400 });

const dims = (h: number, l: number, w: number, s: number): RiskDimensions => ({
  holder_concentration_score: h,
  liquidity_stability_score: l,
  wash_trade_score: w,
  smart_money_flow_score: s,
});

/** A token whose numbers are drawn at random, often absurd, to check the ranges hold. */
function randomToken(seed: number): TokenRiskInput {
  const r = rng(seed);
  const input = healthyToken(seed);
  const wallets = Array.from({ length: 40 }, (_, i) => addr(`z${i}`));
  const pick = () => wallets[Math.floor(r() * wallets.length)];
  const clusterOf = () => (r() < 0.5 ? `k${Math.floor(r() * 3)}` : null);
  return {
    ...input,
    liquidityUsd: r() * 1e6,
    marketCapUsd: r() < 0.1 ? 0 : r() * 1e7,
    lpLockedShare: r() < 0.5 ? null : r(),
    clusters: [0, 1, 2].map((i) => ({ id: `k${i}`, size: 1 + Math.floor(r() * 20) })),
    holders: [
      ...input.holders,
      ...wallets.map((w) => holder(w, r() * r() * SUPPLY * 0.3, { clusterId: clusterOf(), reputationScore: r() < 0.3 ? null : r() * 100 })),
    ],
    swaps: Array.from({ length: 300 }, () =>
      swap({
        wallet: pick(),
        direction: r() < 0.5 ? "buy" : "sell",
        tokenAmount: Math.floor(r() * 5) * 1000,
        amountUsd: r() * 5_000,
        block: HEAD_BLOCK - Math.floor(r() * 300_000),
        clusterId: clusterOf(),
        funder: addr("f"),
      }),
    ),
    earlyBuys: Array.from({ length: 20 }, () =>
      swap({ wallet: pick(), direction: "buy", tokenAmount: r() * SUPPLY * 0.05, block: LAUNCH_BLOCK + Math.floor(r() * 30), funder: addr("f") }),
    ),
    liquidityChanges: Array.from({ length: 10 }, () =>
      liquidityChange({ kind: r() < 0.5 ? "add" : "remove", provider: pick(), shareOfPool: r(), amountUsd: r() * 1e5, block: HEAD_BLOCK - Math.floor(r() * 5_000) }),
    ),
    liquidityHistory: Array.from({ length: 60 }, (_, i) => ({ block: HEAD_BLOCK - i * 800, timestamp: timeOf(HEAD_BLOCK - i * 800), liquidityUsd: r() * 1e6 })),
    smartMoney: wallets.slice(0, Math.floor(r() * 6)).map((wallet) => ({ wallet, balance: r() * 1000, peakBalance: r() * 5000 })),
  };
}

describe("risk_score", () => {
  it("is the weighted sum of the dimensions, not their mean", () => {
    expect(Object.values(RISK_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    expect(compositeRisk(dims(40, 0, 0, 0), old([]))).toBeCloseTo(12);
    expect(compositeRisk(dims(0, 0, 100, 0), old([]))).toBeCloseTo(20);
    expect(compositeRisk(dims(40, 30, 20, 90), old([]))).toBeCloseTo(0.3 * 40 + 0.3 * 30 + 0.2 * 20 + 0.2 * 90);
    expect(compositeRisk(dims(40, 30, 20, 90), old([]))).not.toBeCloseTo((40 + 30 + 20 + 90) / 4);
  });

  it("is at least high when concentration or liquidity alone is severe", () => {
    expect(compositeRisk(dims(49, 49, 0, 50), old([]))).toBeLessThan(50);
    expect(compositeRisk(dims(50, 0, 0, 0), old([]))).toBe(SEVERE_DIMENSION.floor);
    expect(compositeRisk(dims(0, 80, 0, 0), old([]))).toBe(SEVERE_DIMENSION.floor);
    expect(compositeRisk(dims(0, 0, 100, 100), old([]))).toBeCloseTo(40);
  });

  it("is raised to the floor of every raised flag", () => {
    expect(compositeRisk(dims(0, 0, 0, 0), old(["liquidity_pulled"]))).toBe(RISK_FLOORS.liquidity_pulled);
    expect(compositeRisk(dims(0, 0, 0, 0), old(["sybil_cluster", "concentrated_ownership"]))).toBe(50);
    expect(compositeRisk(dims(100, 100, 100, 100), old(["concentrated_ownership"]))).toBe(100);
    expect(riskLevel(compositeRisk(dims(0, 0, 0, 0), old(["liquidity_pulled"])))).toBe("critical");
  });

  it("is at least medium in a token's first day", () => {
    expect(compositeRisk(dims(0, 0, 0, 0), { flags: [], ageSeconds: 3_600 })).toBe(NEW_TOKEN.floor);
    expect(riskLevel(NEW_TOKEN.floor)).toBe("medium");
    expect(compositeRisk(dims(0, 0, 0, 0), { flags: [], ageSeconds: 25 * 3_600 })).toBe(0);
    const input = healthyToken();
    expect(scoreTokenRisk({ ...input, token: { ...input.token, launchedAt: input.now - 3_600 } }).riskLevel).toBe("medium");
  });

  it("maps to the risk levels at 25, 50 and 75", () => {
    expect([0, 24.99, 25, 49.99, 50, 74.99, 75, 100].map(riskLevel)).toEqual([
      "low", "low", "medium", "medium", "high", "high", "critical", "critical",
    ]);
  });
});

describe("scoreTokenRisk", () => {
  it("rates a healthy token low, with no flag, in the shape of token_scores", () => {
    const result = scoreTokenRisk(healthyToken());
    expect(result.flags).toEqual([]);
    expect(result.flagEvidence).toEqual([]);
    expect(result.riskLevel).toBe("low");
    expect(result.methodVersion).toBe(METHOD_VERSION);
    expect(result.earlyMoverCount).toBe(12);
    expect(result.avgReputationTop10).toBe(50);
  });

  it("keeps every dimension and the composite within 0..100 on arbitrary inputs", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const result = scoreTokenRisk(randomToken(seed));
      for (const v of [
        result.riskScore,
        result.holderConcentrationScore,
        result.liquidityStabilityScore,
        result.washTradeScore,
        result.smartMoneyFlowScore,
        result.avgReputationTop10,
      ]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(100);
        expect(Number.isFinite(v)).toBe(true);
      }
      expect(result.flags).toEqual(result.flagEvidence.map((e) => e.flag));
      expect(RISK_FLAGS.filter((f) => result.flags.includes(f))).toEqual(result.flags);
    }
  });

  it("only uses swaps of the lookback window and buys of the early window", () => {
    const input = healthyToken();
    const old = swap({ wallet: addr("old"), direction: "buy", timestamp: input.now - 8 * 86_400 });
    const late = swap({ wallet: addr("late"), direction: "buy", block: LAUNCH_BLOCK + 500 });
    const result = scoreTokenRisk({ ...input, swaps: [...input.swaps, old], earlyBuys: [...input.earlyBuys, late] });
    expect(result.earlyMoverCount).toBe(12);
  });

  it("survives an empty token", () => {
    const result = scoreTokenRisk({
      ...healthyToken(),
      holders: [],
      swaps: [],
      earlyBuys: [],
      liquidityHistory: [],
      liquidityChanges: [],
      liquidityUsd: 0,
      marketCapUsd: 0,
    });
    expect(result.riskScore).toBeGreaterThanOrEqual(0);
    expect(result.earlyMoverNetActivity).toBe("holding");
    expect(result.avgReputationTop10).toBe(0);
  });
});
