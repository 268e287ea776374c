import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/random";
import { sortedPositions } from "./sorted-positions";

/** The order by brute force: a comparator sort, NaN last, ties by position. */
function expected(values: Float64Array, descending: boolean): number[] {
  const sign = descending ? -1 : 1;
  return Array.from(values.keys()).sort((a, b) => {
    const [x, y] = [values[a], values[b]];
    if (Number.isNaN(x) || Number.isNaN(y)) return Number(Number.isNaN(x)) - Number(Number.isNaN(y)) || a - b;
    return sign * (x - y) || a - b;
  });
}

const random = mulberry32(5);
const special = [
  Number.NaN,
  0,
  -0,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  1,
  -1,
];
const shapes: Record<string, () => number> = {
  special: () => special[Math.floor(random() * special.length)],
  spread: () => (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20),
  integers: () => Math.floor(random() * 101),
  mixed: () => (random() < 0.3 ? special[Math.floor(random() * special.length)] : (random() - 0.4) * 1e6),
};

describe("sortedPositions", () => {
  const cases = [0, 1, 2, 3, 1_000, 70_000].flatMap((n) =>
    Object.keys(shapes).flatMap((shape) => [true, false].map((d): [number, string, boolean] => [n, shape, d])),
  );
  it.each(cases)("%i %s values, descending %s: the comparator sort's order", (n, shape, descending) => {
    const values = Float64Array.from({ length: n }, shapes[shape]);
    expect(Array.from(sortedPositions(values, descending))).toEqual(expected(values, descending));
  });
});
