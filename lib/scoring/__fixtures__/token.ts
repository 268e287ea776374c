/** Builders of scoring inputs for the unit tests: a healthy token, and wallets and swaps to plant in it. */

import { mulberry32 } from "@/lib/random";
import type { Holder, LiquidityChange, Swap, TokenRiskInput } from "../token-input";

/** Deterministic pseudo-random numbers. */
export const rng = mulberry32;

export const NOW = 1_800_000_000;
export const LAUNCH_BLOCK = 10_000;
export const BLOCK_SECONDS = 2;
export const SUPPLY = 1_000_000_000;
export const POOL = addr("p001");

/** Head block at NOW; blocks are BLOCK_SECONDS apart. */
export const HEAD_BLOCK = LAUNCH_BLOCK + 50_000;
export const timeOf = (block: number) => NOW - (HEAD_BLOCK - block) * BLOCK_SECONDS;
export const blockAt = (timestamp: number) => HEAD_BLOCK - Math.round((NOW - timestamp) / BLOCK_SECONDS);

export function addr(tag: string | number): string {
  return `0x${String(tag).padStart(40, "0")}`;
}

let txSeq = 0;
export const txHash = () => `0x${(++txSeq).toString(16).padStart(64, "0")}`;

export function swap(p: Partial<Swap> & Pick<Swap, "wallet" | "direction">): Swap {
  const block = p.block ?? (p.timestamp !== undefined ? blockAt(p.timestamp) : HEAD_BLOCK - 100);
  return {
    tokenAmount: 1000,
    amountUsd: 100,
    timestamp: timeOf(block),
    txHash: txHash(),
    funder: null,
    clusterId: null,
    ...p,
    block,
  };
}

export const holder = (address: string, balance: number, extra: Partial<Holder> = {}): Holder => ({
  address,
  balance,
  tags: [],
  clusterId: null,
  funder: null,
  ...extra,
});

export function liquidityChange(
  p: Partial<LiquidityChange> & Pick<LiquidityChange, "kind" | "provider">,
): LiquidityChange {
  const block = p.block ?? HEAD_BLOCK - 1000;
  return { pool: POOL, shareOfPool: 0.1, amountUsd: 1000, timestamp: timeOf(block), txHash: txHash(), ...p, block };
}

/**
 * A healthy token: the pool holds 55% of supply, 300 independent holders the rest in small
 * amounts, stable liquidity, two-sided retail trading, nobody clustered, no smart money.
 */
export function healthyToken(seed = 1): TokenRiskInput {
  const r = rng(seed);
  const retail = Array.from({ length: 300 }, (_, i) => addr(`r${i}`));
  const holders: Holder[] = [
    holder(POOL, 0.55 * SUPPLY, { tags: ["pool"] }),
    ...retail.map((a) => holder(a, ((0.45 * SUPPLY) / 300) * (0.5 + r()))),
  ];
  const swaps = Array.from({ length: 400 }, () =>
    swap({
      wallet: retail[Math.floor(r() * retail.length)],
      direction: r() < 0.55 ? "buy" : "sell",
      tokenAmount: 10_000 + r() * 200_000,
      amountUsd: 20 + r() * 400,
      block: HEAD_BLOCK - Math.floor(r() * 40_000),
    }),
  );
  const earlyBuys = Array.from({ length: 12 }, (_, i) =>
    swap({ wallet: retail[i], direction: "buy", block: LAUNCH_BLOCK + 2 + i, tokenAmount: 2_000_000, amountUsd: 200 }),
  );
  const liquidityHistory = Array.from({ length: 100 }, (_, i) => {
    const block = LAUNCH_BLOCK + i * 500;
    return { block, timestamp: timeOf(block), liquidityUsd: 50_000 + i * 300 + r() * 2_000 };
  });
  const creator = addr("c001");
  return {
    token: { address: addr("t001"), launchBlock: LAUNCH_BLOCK, launchedAt: timeOf(LAUNCH_BLOCK), totalSupply: SUPPLY },
    now: NOW,
    liquidityUsd: 80_000,
    marketCapUsd: 400_000,
    holders,
    clusters: [],
    liquidityHistory,
    liquidityChanges: [
      liquidityChange({ kind: "add", provider: creator, shareOfPool: 1, amountUsd: 50_000, block: LAUNCH_BLOCK }),
    ],
    lpLockedShare: null,
    swaps,
    earlyBuys,
    smartMoney: [],
  };
}

/** A token whose numbers are drawn at random, often absurd, to check the ranges hold. */
export function randomToken(seed: number): TokenRiskInput {
  const r = rng(seed);
  const input = healthyToken(seed);
  const wallets = Array.from({ length: 40 }, (_, i) => addr(`z${i}`));
  const pick = () => wallets[Math.floor(r() * wallets.length)];
  const clusterOf = () => (r() < 0.5 ? `k${Math.floor(r() * 3)}` : null);
  return {
    ...input,
    liquidityUsd: r() * 1e6,
    marketCapUsd: r() < 0.1 ? 0 : r() * 1e7,
    lpLockedShare: r() < 0.5 ? null : r(),
    clusters: [0, 1, 2].map((i) => ({ id: `k${i}`, size: 1 + Math.floor(r() * 20) })),
    holders: [...input.holders, ...wallets.map((w) => holder(w, r() * r() * SUPPLY * 0.3, { clusterId: clusterOf() }))],
    swaps: Array.from({ length: 300 }, () =>
      swap({
        wallet: pick(),
        direction: r() < 0.5 ? "buy" : "sell",
        tokenAmount: Math.floor(r() * 5) * 1000,
        amountUsd: r() * 5_000,
        block: HEAD_BLOCK - Math.floor(r() * 300_000),
        clusterId: clusterOf(),
        funder: addr("f"),
      }),
    ),
    earlyBuys: Array.from({ length: 20 }, () =>
      swap({
        wallet: pick(),
        direction: "buy",
        tokenAmount: r() * SUPPLY * 0.05,
        block: LAUNCH_BLOCK + Math.floor(r() * 30),
        funder: addr("f"),
      }),
    ),
    liquidityChanges: Array.from({ length: 10 }, () =>
      liquidityChange({
        kind: r() < 0.5 ? "add" : "remove",
        provider: pick(),
        shareOfPool: r(),
        amountUsd: r() * 1e5,
        block: HEAD_BLOCK - Math.floor(r() * 5_000),
      }),
    ),
    liquidityHistory: Array.from({ length: 60 }, (_, i) => ({
      block: HEAD_BLOCK - i * 800,
      timestamp: timeOf(HEAD_BLOCK - i * 800),
      liquidityUsd: r() * 1e6,
    })),
    smartMoney: wallets
      .slice(0, Math.floor(r() * 6))
      .map((wallet) => ({ wallet, balance: r() * 1000, peakBalance: r() * 5000 })),
  };
}
