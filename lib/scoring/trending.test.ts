import { describe, expect, it } from "vitest";
import { holderGrowthPct } from "./holder-growth";
import { trendingScore } from "./trending";

describe("trendingScore", () => {
  const base = { volume24hUsd: 10_000, holderGrowth1hPct: 0, riskScore: 0 };

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
