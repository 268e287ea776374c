import { describe, expect, it } from "vitest";
import { RISK_FLAGS, type RiskFlag } from "@/lib/domain/vocab";
import { addr, healthyToken, LAUNCH_BLOCK, randomToken, swap } from "./__fixtures__/token";
import {
  compositeRisk,
  finishTokenRisk,
  type RiskDimensions,
  type RiskFindings,
  recentSwaps,
  riskLevel,
  scoreTokenRisk,
  tokenConfidence,
  tokenRiskParts,
} from "./risk";
import { smartMoneyFlow } from "./smart-money";
import {
  COMBINED_FLAG_FLOORS,
  METHOD_VERSION,
  NEW_TOKEN,
  RISK_FLOORS,
  RISK_WEIGHTS,
  SEVERE_DIMENSION,
} from "./weights";

/** Findings of a token past its first day. */
const old = (flags: RiskFlag[]) => ({ flags, ageSeconds: 30 * 86_400 });

const dims = (h: number | null, l: number | null, w: number | null, s: number | null): RiskDimensions => ({
  holder_concentration_score: h,
  liquidity_stability_score: l,
  wash_trade_score: w,
  smart_money_flow_score: s,
});

const riskOf = (d: RiskDimensions, findings: RiskFindings) => compositeRisk(d, findings).score;

describe("risk_score", () => {
  it("is the weighted sum of the dimensions, not their mean", () => {
    expect(Object.values(RISK_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    expect(riskOf(dims(40, 0, 0, 0), old([]))).toBeCloseTo(12);
    expect(riskOf(dims(0, 0, 100, 0), old([]))).toBeCloseTo(20);
    expect(riskOf(dims(40, 30, 20, 90), old([]))).toBeCloseTo(0.3 * 40 + 0.3 * 30 + 0.2 * 20 + 0.2 * 90, 1);
    expect(riskOf(dims(40, 30, 20, 90), old([]))).not.toBeCloseTo((40 + 30 + 20 + 90) / 4);
  });

  it("shares out the weight of a dimension without data instead of reading it as 50", () => {
    // Smart money unknown: the other three carry 0.3/0.8, 0.3/0.8 and 0.2/0.8.
    expect(riskOf(dims(40, 20, 10, null), old([]))).toBe(25); // (12 + 6 + 2) / 0.8
    expect(riskOf(dims(40, 20, 10, null), old([]))).not.toBeCloseTo(riskOf(dims(40, 20, 10, 50), old([])));
    expect(riskOf(dims(null, null, null, null), old([]))).toBe(0);
  });

  it("lists the floors that apply, each with its reason, and is their result exactly", () => {
    const raised = compositeRisk(dims(55, 10, 0, null), old(["concentrated_ownership"]));
    expect(raised.weighted).toBe(24.4); // (0.3·55 + 0.3·10 + 0.2·0) / 0.8
    expect(raised.adjustments).toEqual([
      { reason: "concentrated_ownership", min_score: RISK_FLOORS.concentrated_ownership },
      { reason: "severe_holder_concentration", min_score: SEVERE_DIMENSION.floor },
    ]);
    expect(raised.score).toBe(SEVERE_DIMENSION.floor);
    // A floor below the weighted score still applies, and says so; it just does not move it.
    const above = compositeRisk(dims(100, 100, 100, 100), old(["concentrated_ownership"]));
    expect(above.score).toBe(100);
    expect(above.adjustments.map((a) => a.reason)).toEqual([
      "concentrated_ownership",
      "severe_holder_concentration",
      "severe_liquidity_instability",
    ]);
  });

  it("rounds half up to 0.1, as by hand", () => {
    // (0.3·66.5 + 0.3·66.8) / 0.6 = 66.65: 66.649999… in floating point.
    expect(riskOf(dims(66.5, 66.8, null, null), old([]))).toBe(66.7);
  });

  it("is at least high when concentration or liquidity alone is severe", () => {
    expect(riskOf(dims(49, 49, 0, 50), old([]))).toBeLessThan(50);
    expect(riskOf(dims(50, 0, 0, 0), old([]))).toBe(SEVERE_DIMENSION.floor);
    expect(riskOf(dims(0, 80, 0, 0), old([]))).toBe(SEVERE_DIMENSION.floor);
    expect(riskOf(dims(0, 0, 100, 100), old([]))).toBeCloseTo(40);
  });

  it("judges severe liquidity on the realized instability, without the unlocked LP", () => {
    const unlocked = { ...old([]), realized: { liquidity_stability_score: 30 } };
    expect(riskOf(dims(0, 60, 0, 0), unlocked)).toBe(18);
    expect(riskOf(dims(0, 60, 0, 0), { ...old([]), realized: { liquidity_stability_score: 50 } })).toBe(
      SEVERE_DIMENSION.floor,
    );
  });

  it("leaves severe liquidity to the weighted score when the pool's LP is locked: its providers cannot pull it", () => {
    // Liquidity 97% down from its peak without a removal: traders sold the quote side out.
    const drained = { ...healthyToken(), liquidityUsd: 2_000 };
    const reasons = (lpLockedShare: number | null) =>
      scoreTokenRisk({ ...drained, lpLockedShare }).adjustments.map((a) => a.reason);
    for (const open of [null, 0, 0.5]) expect(reasons(open)).toContain("severe_liquidity_instability");
    for (const locked of [SEVERE_DIMENSION.lockedLpShare, 1])
      expect(reasons(locked)).not.toContain("severe_liquidity_instability");
    const locked = scoreTokenRisk({ ...drained, lpLockedShare: 1 });
    expect(locked.dimensions.liquidity_stability_score).toBeGreaterThan(
      scoreTokenRisk(healthyToken()).dimensions.liquidity_stability_score!,
    );
  });

  it("is raised to the floor of every raised flag", () => {
    expect(riskOf(dims(0, 0, 0, 0), old(["liquidity_pulled"]))).toBe(RISK_FLOORS.liquidity_pulled);
    expect(riskOf(dims(0, 0, 0, 0), old(["sybil_cluster", "concentrated_ownership"]))).toBe(50);
    expect(riskOf(dims(100, 100, 100, 100), old(["concentrated_ownership"]))).toBe(100);
    expect(riskLevel(riskOf(dims(0, 0, 0, 0), old(["liquidity_pulled"])))).toBe("critical");
  });

  it("is at least high when wash trading meets concentrated ownership, medium for either alone", () => {
    const floor = COMBINED_FLAG_FLOORS.concentrated_wash_trading.floor;
    expect(riskLevel(riskOf(dims(0, 0, 0, 0), old(["wash_trading"])))).toBe("medium");
    expect(riskLevel(riskOf(dims(0, 0, 0, 0), old(["concentrated_ownership"])))).toBe("medium");
    const both = compositeRisk(dims(0, 0, 0, 0), old(["wash_trading", "concentrated_ownership"]));
    expect(both.score).toBe(floor);
    expect(riskLevel(both.score)).toBe("high");
    expect(both.adjustments).toContainEqual({ reason: "concentrated_wash_trading", min_score: floor });
  });

  it("is at least medium in a token's first day", () => {
    expect(compositeRisk(dims(0, 0, 0, 0), { flags: [], ageSeconds: 3_600 })).toEqual({
      weighted: 0,
      score: NEW_TOKEN.floor,
      adjustments: [{ reason: "new_token", min_score: NEW_TOKEN.floor }],
    });
    expect(riskLevel(NEW_TOKEN.floor)).toBe("medium");
    expect(riskOf(dims(0, 0, 0, 0), { flags: [], ageSeconds: 25 * 3_600 })).toBe(0);
    const input = healthyToken();
    expect(scoreTokenRisk({ ...input, token: { ...input.token, launchedAt: input.now - 3_600 } }).riskLevel).toBe(
      "medium",
    );
  });

  it("has a confidence that follows the weight with data", () => {
    expect(tokenConfidence(dims(1, 1, 1, 1))).toBe("high");
    expect(tokenConfidence(dims(1, 1, 1, null))).toBe("medium");
    expect(tokenConfidence(dims(1, 1, null, null))).toBe("low");
  });

  it("maps to the risk levels at 25, 50 and 75", () => {
    expect([0, 24.99, 25, 49.99, 50, 74.99, 75, 100].map(riskLevel)).toEqual([
      "low",
      "low",
      "medium",
      "medium",
      "high",
      "high",
      "critical",
      "critical",
    ]);
  });
});

describe("scoreTokenRisk", () => {
  it("rates a healthy token low, with no flag, in the shape of token_scores", () => {
    const result = scoreTokenRisk(healthyToken());
    expect(result.flags).toEqual([]);
    expect(result.flagEvidence).toEqual([]);
    expect(result.riskLevel).toBe("low");
    expect(result.adjustments).toEqual([]);
    expect(result.riskScore).toBe(result.weightedScore);
    expect(result.methodVersion).toBe(METHOD_VERSION);
    expect(result.earlyMoverCount).toBe(12);
    expect(result.reputationHolders).toHaveLength(10);
  });

  it("keeps every dimension and the composite within 0..100 on arbitrary inputs", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const result = scoreTokenRisk(randomToken(seed));
      const known = Object.values(result.dimensions).filter((v): v is number => v !== null);
      for (const v of [result.riskScore, result.weightedScore, ...known]) {
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
    expect(result.missingDimensions.map((m) => m.reason)).toEqual([
      "no_holders",
      "no_liquidity",
      "no_recent_trades",
      "no_smart_money",
    ]);
    expect(result.confidence).toBe("low");
    expect(result.earlyMoverNetActivity).toBe("holding");
    expect(result.reputationHolders).toEqual([]);
  });

  it("scores a token again from its parts and its new smart money's swaps alone, as from its whole input", () => {
    let exiting = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const input = randomToken(seed);
      const parts = tokenRiskParts(input, recentSwaps(input.swaps, input.now));
      // Another set of smart money, as after the wallets' classifications moved: some of the traders,
      // with peaks their sells may exit.
      const traders = [...new Set(input.swaps.map((s) => s.wallet))].filter((_, i) => (i * 7 + seed) % 3 === 0);
      const smartMoney = traders.map((wallet, i) => ({
        wallet,
        balance: i * 10,
        peakBalance: 3_000 + (i % 4) * 4_000,
      }));
      const members = new Set(traders);
      const theirSwaps = input.swaps.filter((s) => members.has(s.wallet));
      const again = finishTokenRisk(parts, smartMoneyFlow(smartMoney, recentSwaps(theirSwaps, input.now)));
      const whole = scoreTokenRisk({ ...input, smartMoney });
      expect(again).toEqual(whole);
      if (whole.flags.includes("smart_money_exiting")) exiting++;
    }
    expect(exiting).toBeGreaterThan(0);
  });
});
