import { describe, expect, it } from "vitest";
import { halves, slices } from "./full-refresh";

describe("slices", () => {
  const rows = new Map([
    ["busy", 9_000],
    ["a", 10],
    ["b", 20],
    ["c", 5_000],
    ["d", 0],
  ]);
  const rowsOf = (t: string) => rows.get(t)!;

  it.each([
    {
      name: "cut by rows: a busy token alone, then until the rows reach the bound",
      most: 200,
      bound: 5_000,
      want: [["busy"], ["a", "b", "c"], ["d"]],
    },
    {
      name: "no row bound: by count alone",
      most: 2,
      bound: Number.POSITIVE_INFINITY,
      want: [["busy", "a"], ["b", "c"], ["d"]],
    },
    { name: "whichever comes first", most: 2, bound: 5_000, want: [["busy"], ["a", "b"], ["c"], ["d"]] },
    {
      name: "each item counts one row besides its own",
      most: 200,
      bound: 2,
      want: [["busy"], ["a"], ["b"], ["c"], ["d"]],
    },
  ])("$name", ({ most, bound, want }) => {
    expect(slices([...rows.keys()], rowsOf, most, bound)).toEqual(want);
  });

  it("makes no slice of no items", () => {
    expect(slices([], rowsOf, 10, 10)).toEqual([]);
  });
});

describe("halves (a slice that gave way to a block, tried again)", () => {
  const none = { tokens: [], pools: [], wallets: [] };
  it.each([
    {
      name: "tokens, the unscored among them kept beside each half",
      slice: { ...none, tokens: ["a", "b", "c"], unscored: ["b"] },
      want: [
        { ...none, tokens: ["a", "b"], unscored: ["b"] },
        { ...none, tokens: ["c"], unscored: ["b"] },
      ],
    },
    {
      name: "wallets",
      slice: { ...none, wallets: ["w1", "w2"], walletsUnscored: true },
      want: [
        { ...none, wallets: ["w1"], walletsUnscored: true },
        { ...none, wallets: ["w2"], walletsUnscored: true },
      ],
    },
    {
      name: "tokens to score again",
      slice: { ...none, rescore: ["a", "b", "c", "d"] },
      want: [
        { ...none, rescore: ["a", "b"] },
        { ...none, rescore: ["c", "d"] },
      ],
    },
    {
      name: "the pools",
      slice: { ...none, pools: ["p1", "p2"] },
      want: [
        { ...none, pools: ["p1"] },
        { ...none, pools: ["p2"] },
      ],
    },
    { name: "one token stays whole", slice: { ...none, tokens: ["a"] }, want: [{ ...none, tokens: ["a"] }] },
  ])("$name", ({ slice, want }) => {
    expect(halves(slice)).toEqual(want);
  });
});
