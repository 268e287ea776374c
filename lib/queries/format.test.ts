import { describe, expect, it } from "vitest";
import { percentOf, round, toUnits } from "./format";

const MAX = (2n ** 256n - 1n).toString();

describe("toUnits", () => {
  it("reads any uint256 at 0, 18 and 36 decimals as a finite number", () => {
    expect(toUnits("1500", 0)).toBe(1500);
    expect(toUnits("1500000000000000000", 18)).toBe(1.5);
    expect(toUnits("15", 36)).toBe(1.5e-35);
    expect(toUnits(MAX, 0)).toBe(Number(MAX));
    expect(toUnits(MAX, 36)).toBeCloseTo(1.157920892373162e41, -27);
    expect(toUnits(MAX, 77)).toBeCloseTo(1.157920892373162, 12);
    expect(toUnits("-25", 1)).toBe(-2.5);
  });

  it("never answers NaN or Infinity", () => {
    for (const raw of ["", "-", "1e5", "NaN", "Infinity", "9".repeat(400)]) {
      for (const decimals of [0, 18, 36])
        expect(Number.isFinite(toUnits(raw, decimals)), `${raw} ${decimals}`).toBe(true);
    }
  });
});

describe("round", () => {
  it("rounds, keeps numbers too large to scale, and turns NaN and infinities into 0", () => {
    expect(round(1.23456789, 2)).toBe(1.23);
    expect(round(1e305, 6)).toBe(1e305);
    expect(round(Number.NaN)).toBe(0);
    expect(round(Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe("percentOf", () => {
  it("is exact for uint256 amounts", () => {
    expect(percentOf(MAX, MAX)).toBe(100);
    expect(percentOf("0", MAX)).toBe(0);
    expect(percentOf("1", "0")).toBe(0);
  });
});
