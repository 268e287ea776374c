import { describe, expect, it } from "vitest";
import { holderGrowthPct } from "./holder-growth";
import { type TrendingInput, trendingScore } from "./trending";

describe("trendingScore", () => {
  const base: TrendingInput = { volume24hUsd: 10_000, holderGrowth1hPct: 0, riskScore: 0, priceUsd: 0.01, flags: [] };

  it("grows with volume, log-damped", () => {
    expect(trendingScore(base)).toBeCloseTo(Math.log(10_001), 12);
    expect(trendingScore({ ...base, volume24hUsd: 100_000 })).toBeGreaterThan(trendingScore(base));
    expect(trendingScore({ ...base, volume24hUsd: 0 })).toBe(0);
  });

  it("is lifted by holder growth up to +500 %, not lowered by shrinking", () => {
    expect(trendingScore({ ...base, holderGrowth1hPct: 100 })).toBeCloseTo(2 * trendingScore(base), 12);
    expect(trendingScore({ ...base, holderGrowth1hPct: 5_000 })).toBeCloseTo(6 * trendingScore(base), 12);
    expect(trendingScore({ ...base, holderGrowth1hPct: -50 })).toBe(trendingScore(base));
  });

  it("is scaled down by risk: a risk 100 token never trends", () => {
    expect(trendingScore({ ...base, riskScore: 50 })).toBeCloseTo(trendingScore(base) / 2, 12);
    expect(trendingScore({ ...base, riskScore: 100, holderGrowth1hPct: 500 })).toBe(0);
  });

  it("never promotes a token that cannot be bought at a price: no price, or its liquidity pulled", () => {
    // The reported case: liquidity_pulled at risk 85 with $220 left, busy and growing as holders rush out.
    const pulled: TrendingInput = {
      volume24hUsd: 250_000,
      holderGrowth1hPct: 500,
      riskScore: 85,
      priceUsd: 0,
      flags: ["liquidity_pulled"],
    };
    expect(trendingScore(pulled)).toBe(0);
    expect(trendingScore({ ...pulled, priceUsd: 0.01 })).toBe(0);
    expect(trendingScore({ ...pulled, flags: [] })).toBe(0);
    expect(trendingScore({ ...base, volume24hUsd: 10 })).toBeGreaterThan(0);
  });
});

describe("holderGrowthPct", () => {
  it("is the change against the count at the window's start", () => {
    expect(holderGrowthPct(150, 100)).toBe(50);
    expect(holderGrowthPct(80, 100)).toBe(-20);
    expect(holderGrowthPct(100, 100)).toBe(0);
  });

  it("counts a token without holders at the start against one holder", () => {
    expect(holderGrowthPct(12, 0)).toBe(1_200);
    expect(holderGrowthPct(0, 0)).toBe(0);
  });
});
