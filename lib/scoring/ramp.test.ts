import { describe, expect, it } from "vitest";
import { clamp, ramp, rampScore, shrunkRate, weightedMean } from "./ramp";

describe("ramp helpers", () => {
  it("ramps linearly between its bounds and clamps outside", () => {
    expect(ramp(0.5, 0.2, 0.8)).toBeCloseTo(0.5);
    expect(ramp(0.1, 0.2, 0.8)).toBe(0);
    expect(ramp(0.9, 0.2, 0.8)).toBe(1);
  });

  it("falls when its bounds are reversed", () => {
    expect(ramp(0.01, 0.1, 0.02)).toBe(1);
    expect(ramp(0.06, 0.1, 0.02)).toBeCloseTo(0.5);
    expect(ramp(0.5, 0.1, 0.02)).toBe(0);
  });

  it("leaves unknown terms out of a weighted mean instead of counting them as zero", () => {
    expect(
      weightedMean([
        { weight: 3, value: 1 },
        { weight: 1, value: 0 },
      ]),
    ).toBeCloseTo(0.75);
    expect(
      weightedMean([
        { weight: 3, value: 1 },
        { weight: 1, value: null },
      ]),
    ).toBe(1);
    expect(weightedMean([])).toBe(0);
  });

  it("scores 0..100 from a ramp spec", () => {
    const spec = { a: { weight: 1, from: 0, to: 1 }, b: { weight: 3, from: 0, to: 10 } };
    expect(rampScore({ a: 1, b: 0 }, spec)).toBeCloseTo(25);
    expect(rampScore({ a: 5, b: 50 }, spec)).toBe(100);
    expect(rampScore({ a: -5, b: -50 }, spec)).toBe(0);
  });

  it("clamps and shrinks", () => {
    expect(clamp(2)).toBe(1);
    expect(clamp(-1, 0, 100)).toBe(0);
    expect(shrunkRate(1, 1, 2, 4)).toBeCloseTo(0.6);
  });
});
