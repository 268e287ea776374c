import { describe, expect, it } from "vitest";
import type { FlagEvidence, TokenRiskParts } from "@/lib/scoring";
import { type KeptToken, KeptTokens } from "./token-inputs";

/** A wash-trading flag naming `n` wallets and `n` transactions. */
const evidence = (n: number): FlagEvidence => ({
  flag: "wash_trading",
  wallets: Array.from({ length: n }, (_, i) => `w${i}`),
  tx_hashes: Array.from({ length: n }, (_, i) => `t${i}`),
  wallet_count: n,
  tx_count: n,
  funder: null,
  metrics: {},
  thresholds: {},
  tripped: [],
});

/** A kept token of size 1 + 2n: its wash evidence's wallets and transactions. */
const kept = (address: string, n: number): KeptToken => ({
  address,
  parts: {
    launchedAt: 0,
    now: 0,
    lpLockedShare: null,
    concentration: { score: null, flag: null },
    liquidity: { score: null, realizedScore: null, flag: null },
    wash: { score: 100, flag: n > 0 ? evidence(n) : null },
    sybil: null,
    fundingMissing: false,
    earlyMoverCount: 0,
    earlyMoverNetActivity: "holding",
    reputationHolders: [],
  } satisfies TokenRiskParts,
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
  rows: 0,
});

const addresses = (ks: KeptToken[]) => ks.map((k) => k.address);

describe("KeptTokens", () => {
  it("keeps tokens while their evidence fits, and gives each back once", () => {
    const tokens = new KeptTokens(8);
    for (const k of [kept("a", 1), kept("big", 3), kept("b", 2)]) tokens.keep(k);
    expect(addresses(tokens.take(["a", "big", "b", "c"]))).toEqual(["a", "b"]);
    expect(tokens.take(["a", "b"])).toEqual([]);
  });

  it("frees the size of what it gave back, and counts a token kept twice once", () => {
    const tokens = new KeptTokens(6);
    tokens.keep(kept("a", 2));
    tokens.keep(kept("a", 2));
    tokens.keep(kept("b", 0));
    expect(addresses(tokens.take(["a", "b"]))).toEqual(["a", "b"]);
    tokens.keep(kept("c", 2));
    expect(addresses(tokens.take(["c"]))).toEqual(["c"]);
  });

  it("drops what it kept as of another head: a block was indexed in between", () => {
    const tokens = new KeptTokens(6).asOf({ number: 10, timestamp: 100 });
    tokens.keep(kept("a", 2));
    expect(addresses(tokens.asOf({ number: 10, timestamp: 100 }).take(["a"]))).toEqual(["a"]);
    tokens.keep(kept("a", 2));
    expect(tokens.asOf({ number: 11, timestamp: 102 }).take(["a"])).toEqual([]);
    tokens.keep(kept("b", 2));
    expect(addresses(tokens.take(["b"]))).toEqual(["b"]);
  });
});
