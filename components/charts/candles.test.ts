import { describe, expect, it } from "vitest";
import {
  candleIndexAt,
  formatAxisTime,
  formatPrice,
  labelEvery,
  niceStep,
  priceDomain,
  priceTicks,
  scale,
} from "./candles";

const range = (low: number, high: number) => ({ low, high });

describe("priceDomain", () => {
  it.each([
    ["pads the lows and highs by 8% of the range", [range(10, 20), range(12, 18)], [9.2, 20.8]],
    ["never goes below zero when a low is near zero", [range(0.001, 100)], [0, 107.99992]],
    ["keeps a low of exactly zero at zero", [range(0, 5)], [0, 5.4]],
    ["pads a flat series by its own size", [range(2, 2)], [1.84, 2.16]],
    ["gives a series of zeros a range", [range(0, 0)], [0, 1]],
    ["gives no candles a range", [], [0, 1]],
  ] as const)("%s", (_, candles, [lo, hi]) => {
    const [a, b] = priceDomain([...candles]);
    expect(a).toBeCloseTo(lo, 9);
    expect(b).toBeCloseTo(hi, 9);
    expect(a).toBeGreaterThanOrEqual(0);
  });

  it("scales with tiny prices: 1e-9 tokens get a domain around them, not [0, 1]", () => {
    const [lo, hi] = priceDomain([range(1.2e-9, 1.5e-9)]);
    expect(lo).toBeCloseTo(1.176e-9, 20);
    expect(hi).toBeCloseTo(1.524e-9, 20);
    const flat = priceDomain([range(3e-9, 3e-9)]);
    expect(flat[0]).toBeGreaterThan(0);
    expect(flat[1]).toBeLessThan(4e-9);
  });
});

describe("priceTicks", () => {
  it.each([
    [0, 10, 4, 5],
    [9.2, 20.8, 4, 5],
    [1.176e-9, 1.524e-9, 4, 1e-10],
    [0, 1, 5, 0.2],
  ])("[%s, %s] in about %s ticks: a round step (%s) inside the domain", (lo, hi, count, expected) => {
    const { ticks, step } = priceTicks(lo, hi, count);
    expect(step / expected).toBeCloseTo(1, 12);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    for (const t of ticks) {
      expect(t).toBeGreaterThanOrEqual(lo);
      expect(t).toBeLessThanOrEqual(hi);
    }
    // Labels of neighbouring ticks differ.
    const labels = ticks.map((t) => formatPrice(t, step));
    expect(new Set(labels).size).toBe(labels.length);
  });

  it("writes round values without float noise", () => {
    expect(priceTicks(0, 1, 10).ticks).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
  });

  it.each([
    [0.7, 1],
    [1.5, 2],
    [3, 5],
    [7, 10],
    [0.00034, 0.0005],
  ])("niceStep(%s) = %s", (raw, step) => {
    expect(niceStep(raw)).toBeCloseTo(step, 12);
  });
});

describe("formatPrice", () => {
  it.each([
    [0, undefined, "$0"],
    [1234.5678, undefined, "$1,234.6"],
    [2_500_000, undefined, "$2.5M"],
    [0.0026205418668840664, undefined, "$0.0026205"],
    [0.5, undefined, "$0.5"],
    // Tiny prices: the zeros after the point counted in a subscript.
    [1.234e-9, undefined, "$0.0₈1234"],
    [0.00001, undefined, "$0.0₄1"],
    [7.07393e-5, undefined, "$0.0₄70739"],
    // Rounding up to the next power of ten moves the count.
    [9.999999e-7, undefined, "$0.0₅1"],
    // On an axis: as many digits as the step needs.
    [1.2e-9, 1e-10, "$0.0₈12"],
    [15, 5, "$15"],
    [0.25, 0.05, "$0.25"],
    [Number.NaN, undefined, "—"],
  ])("%s (step %s) is %s", (v, step, text) => {
    expect(formatPrice(v, step)).toBe(text);
  });
});

describe("time axis and pointer", () => {
  it.each([
    ["2026-11-24T08:15:00.000Z", "15m", "08:15"],
    ["2026-11-24T00:00:00.000Z", "15m", "00:00"],
    ["2026-11-24T00:00:00.000Z", "1h", "11-24"],
    ["2026-11-24T04:00:00.000Z", "4h", "04:00"],
    ["2026-11-24T00:00:00.000Z", "1d", "11-24"],
  ] as const)("%s on %s candles reads %s", (iso, interval, text) => {
    expect(formatAxisTime(iso, interval)).toBe(text);
  });

  it("maps a pointer's x to the candle under it, clamped to the candles there are", () => {
    expect(candleIndexAt(4, 4, 10, 5)).toBe(0);
    expect(candleIndexAt(38, 4, 10, 5)).toBe(3);
    expect(candleIndexAt(-50, 4, 10, 5)).toBe(0);
    expect(candleIndexAt(500, 4, 10, 5)).toBe(4);
  });

  it("labels every k-th candle so labels stand apart, and scales both ways", () => {
    expect(labelEvery(7, 72)).toBe(11);
    expect(labelEvery(100, 72)).toBe(1);
    const y = scale(0, 10, 200, 0);
    expect([y(0), y(5), y(10)]).toEqual([200, 100, 0]);
    expect(scale(200, 0, 0, 10)(50)).toBe(7.5);
  });
});
