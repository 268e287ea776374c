import { describe, expect, it } from "vitest";
import type { TokenRiskInput } from "@/lib/scoring";
import { type GatheredToken, GatheredTokens } from "./token-inputs";

/** A gathered token whose input holds `rows` holders and nothing else. */
const gathered = (address: string, rows: number): GatheredToken => ({
  input: {
    token: { address, launchBlock: 1, launchedAt: 0, totalSupply: 1 },
    now: 0,
    liquidityUsd: 0,
    marketCapUsd: 0,
    holders: Array.from({ length: rows }, (_, i) => ({
      address: `h${i}`,
      balance: 1,
      tags: [],
      clusterId: null,
      funder: null,
    })),
    clusters: [],
    liquidityHistory: [],
    liquidityChanges: [],
    lpLockedShare: null,
    swaps: [],
    earlyBuys: [],
    smartMoney: [],
  } satisfies TokenRiskInput,
  description: {
    name: "",
    symbol: "",
    sector: "other",
    launchpad: "",
    createdAt: 0,
    marketCapUsd: 0,
    volume24hUsd: 0,
    liquidityUsd: 0,
    holderCount: 0,
    holderGrowth1hPct: 0,
  },
});

const addresses = (gs: GatheredToken[]) => gs.map((g) => g.input.token.address);

describe("GatheredTokens", () => {
  it("keeps tokens while their rows fit, and gives each back once", () => {
    const kept = new GatheredTokens(5);
    kept.keep([gathered("a", 2), gathered("big", 4), gathered("b", 3)]);
    expect(addresses(kept.take(["a", "big", "b", "c"]))).toEqual(["a", "b"]);
    expect(kept.take(["a", "b"])).toEqual([]);
  });

  it("frees the rows of what it gave back", () => {
    const kept = new GatheredTokens(5);
    kept.keep([gathered("a", 5)]);
    kept.keep([gathered("b", 1)]);
    expect(addresses(kept.take(["a"]))).toEqual(["a"]);
    kept.keep([gathered("b", 5)]);
    expect(addresses(kept.take(["b"]))).toEqual(["b"]);
  });
});
