import { describe, expect, it } from "vitest";
import { slices } from "./full-refresh";

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
