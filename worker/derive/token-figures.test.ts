import { describe, expect, it } from "vitest";
import { MAX_USD } from "./prices";
import { type StoredTokenFacts, tokenFigures } from "./token-figures";

const facts = (over: Partial<StoredTokenFacts> = {}): StoredTokenFacts => ({
  totalUnits: 1_000_000,
  circulatingUnits: 900_000,
  startPrice: { "5m": 2, "1h": 1, "24h": 4 },
  holdersNow: 30,
  holdersHourAgo: 20,
  ...over,
});

describe("a token's figures", () => {
  it("values the circulating supply as market cap and the whole supply as FDV, at the price", () => {
    const f = tokenFigures(2, facts());
    expect(f.marketCapUsd).toBe(1_800_000);
    expect(f.fdvUsd).toBe(2_000_000);
  });

  it("changes each window from its start price to the price now, in percent", () => {
    const f = tokenFigures(2, facts());
    expect([f.priceChange5mPct, f.priceChange1hPct, f.priceChange24hPct]).toEqual([0, 100, -50]);
  });

  it("has no change without a start price or a price now, and no value without a price", () => {
    const unpriced = tokenFigures(0, facts());
    expect([unpriced.priceChange5mPct, unpriced.priceChange1hPct, unpriced.priceChange24hPct]).toEqual([
      null,
      null,
      null,
    ]);
    expect([unpriced.marketCapUsd, unpriced.fdvUsd]).toEqual([0, 0]);
    const noStart = tokenFigures(2, facts({ startPrice: { "5m": null, "1h": 0, "24h": -1 } }));
    expect([noStart.priceChange5mPct, noStart.priceChange1hPct, noStart.priceChange24hPct]).toEqual([null, null, null]);
  });

  it("holds absurd figures to MAX_USD: a dust start price, a 2^256 supply", () => {
    const f = tokenFigures(
      1e6,
      facts({ totalUnits: 2 ** 256, circulatingUnits: 2 ** 256, startPrice: { "5m": 1e-300, "1h": 1, "24h": 1 } }),
    );
    expect(f.marketCapUsd).toBe(MAX_USD);
    expect(f.fdvUsd).toBe(MAX_USD);
    expect(f.priceChange5mPct).toBe(MAX_USD);
    expect(Number.isFinite(f.priceChange5mPct)).toBe(true);
  });

  it("counts holders now and their growth over the hour, a token younger than the hour from one holder", () => {
    expect(tokenFigures(1, facts())).toMatchObject({ holderCount: 30, holderGrowth1hPct: 50 });
    expect(tokenFigures(1, facts({ holdersNow: 7, holdersHourAgo: 0 }))).toMatchObject({
      holderCount: 7,
      holderGrowth1hPct: 700,
    });
  });
});
