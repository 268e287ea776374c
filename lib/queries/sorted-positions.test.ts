import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/random";
import { carriedOrder, sortedPositions } from "./sorted-positions";

/** The comparator of the order: NaN last, ties by `rank` (position by default). */
const comparator =
  (values: Float64Array, descending: boolean, rank: ArrayLike<number> = values.map((_, i) => i)) =>
  (a: number, b: number) => {
    const [x, y] = [values[a], values[b]];
    if (Number.isNaN(x) || Number.isNaN(y))
      return Number(Number.isNaN(x)) - Number(Number.isNaN(y)) || rank[a] - rank[b];
    return (descending ? -1 : 1) * (x - y) || rank[a] - rank[b];
  };

/** The order by brute force: a comparator sort. */
const expected = (values: Float64Array, descending: boolean, rank?: ArrayLike<number>): number[] =>
  Array.from(values.keys()).sort(comparator(values, descending, rank));

/** A random permutation of 0 to n - 1. */
function shuffled(n: number): Int32Array {
  const out = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
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

describe("sortedPositions with ties in a given order", () => {
  it.each(Object.keys(shapes))("%s values: equal values in the order given", (shape) => {
    const values = Float64Array.from({ length: 5_000 }, shapes[shape]);
    const ties = shuffled(values.length);
    const rank = new Int32Array(values.length);
    for (const [k, p] of ties.entries()) rank[p] = k;
    for (const descending of [true, false])
      expect(Array.from(sortedPositions(values, descending, ties))).toEqual(expected(values, descending, rank));
  });
});

describe("carriedOrder", () => {
  it.each(
    [0, 1, 2, 1_000].flatMap((n) => Object.keys(shapes).map((shape): [number, string] => [n, shape])),
  )("%i positions, %s values: some changed and some added, the order of a sort anew", (n, shape) => {
    let values = Float64Array.from({ length: n }, shapes[shape]);
    let order = sortedPositions(values, true);
    for (let round = 0; round < 5; round++) {
      const added = 1 + Math.floor(random() * 20);
      const grown = new Float64Array(values.length + added);
      grown.set(values);
      const moved = new Set<number>();
      for (let k = 0; k < values.length / 10; k++) moved.add(Math.floor(random() * values.length));
      for (let p = values.length; p < grown.length; p++) moved.add(p);
      for (const p of moved) grown[p] = shapes[shape]();
      order = carriedOrder(order, grown.length, Int32Array.from(moved), comparator(grown, true));
      expect(Array.from(order)).toEqual(expected(grown, true));
      values = grown;
    }
  });
});
