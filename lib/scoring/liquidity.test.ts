import { describe, expect, it } from "vitest";
import { addr, HEAD_BLOCK, healthyToken, liquidityChange, swap, timeOf } from "./__fixtures__/token";
import { resolveEntities } from "./entities";
import { type LiquidityInput, liquidityStability } from "./liquidity";
import { scoreTokenRisk } from "./risk";
import type { LiquidityPoint, TokenRiskInput } from "./token-input";

const creator = addr("c001");

/** Every wallet its own entity. */
const stability = (input: LiquidityInput) => liquidityStability(input, resolveEntities([], []));

/** Liquidity history ending with `tail` values, one point per 100 blocks up to the head. */
function withTail(input: TokenRiskInput, tail: number[]): LiquidityPoint[] {
  const start = HEAD_BLOCK - tail.length * 100;
  return [
    ...input.liquidityHistory.filter((p) => p.block < start),
    ...tail.map((liquidityUsd, i) => ({
      block: start + (i + 1) * 100,
      timestamp: timeOf(start + (i + 1) * 100),
      liquidityUsd,
    })),
  ];
}

function rugged(shares: number[]): TokenRiskInput {
  const input = healthyToken();
  const removals = shares.map((shareOfPool, i) =>
    liquidityChange({
      kind: "remove",
      provider: creator,
      shareOfPool,
      amountUsd: 70_000 * shareOfPool,
      block: HEAD_BLOCK - 500 + i * 50,
    }),
  );
  const left = shares.reduce((k, s) => k * (1 - s), 1);
  return {
    ...input,
    liquidityChanges: [...input.liquidityChanges, ...removals],
    liquidityHistory: withTail(input, [80_000, 80_000 * left]),
    liquidityUsd: 80_000 * left,
  };
}

describe("liquidity_pulled", () => {
  it("is raised when one provider removes most of the pool in one transaction", () => {
    const input = rugged([0.95]);
    const result = stability(input);
    expect(result.flag?.wallets).toEqual([creator]);
    expect(result.flag?.tx_hashes).toHaveLength(1);
    expect(result.flag?.metrics.provider_removed_share).toBeCloseTo(0.95);
    expect(result.flag?.thresholds.provider_removed_share).toBe(0.7);
    expect(result.score).toBeGreaterThan(60);
    const risk = scoreTokenRisk(input);
    expect(risk.flags).toContain("liquidity_pulled");
    expect(risk.riskLevel).toBe("critical");
  });

  it("is raised by a slow rug whose removals compound past the threshold", () => {
    const result = stability(rugged([0.3, 0.3, 0.3, 0.3]));
    expect(result.largestRemovalShare).toBeCloseTo(0.3);
    expect(result.providerRemovedShare).toBeCloseTo(1 - 0.7 ** 4);
    expect(result.flag?.tx_hashes).toHaveLength(4);
  });

  /** Liquidity falling from 80k to 3k within the last 300 blocks, with `dumps` in the fall. */
  const collapse = (dumps: ReturnType<typeof swap>[]) => {
    const input = healthyToken();
    return stability({
      ...input,
      swaps: [...input.swaps, ...dumps],
      liquidityHistory: withTail(input, [80_000, 80_000, 3_000]),
      liquidityUsd: 3_000,
    });
  };

  it("is raised when liquidity collapses within a day as the pool's provider sells into it, naming the sellers", () => {
    const dump = swap({ wallet: creator, direction: "sell", amountUsd: 70_000, block: HEAD_BLOCK - 150 });
    const result = collapse([
      dump,
      swap({ wallet: addr("d001"), direction: "sell", amountUsd: 20_000, block: HEAD_BLOCK - 140 }),
    ]);
    expect(result.fastDrawdown).toBeGreaterThan(0.95);
    expect(result.flag?.wallets[0]).toBe(creator);
    expect(result.flag?.tx_hashes[0]).toBe(dump.txHash);
    expect(result.flag?.metrics.provider_sell_share).toBeCloseTo(70 / 90);
  });

  it("is not raised for a collapse others' selling causes (a pump unwinding)", () => {
    const whales = [addr("w001"), addr("w002")].map((wallet, i) =>
      swap({ wallet, direction: "sell", amountUsd: 40_000, block: HEAD_BLOCK - 150 + i }),
    );
    const result = collapse([
      ...whales,
      swap({ wallet: creator, direction: "sell", amountUsd: 5_000, block: HEAD_BLOCK - 100 }),
    ]);
    expect(result.fastDrawdown).toBeGreaterThan(0.95);
    expect(result.flag).toBeNull();
  });

  it("is not raised for an LP migration: the provider re-adds the liquidity soon after", () => {
    const input = healthyToken();
    const result = stability({
      ...input,
      liquidityChanges: [
        ...input.liquidityChanges,
        liquidityChange({
          kind: "remove",
          provider: creator,
          shareOfPool: 1,
          amountUsd: 80_000,
          block: HEAD_BLOCK - 300,
        }),
        liquidityChange({
          kind: "add",
          provider: creator,
          pool: addr("p002"),
          shareOfPool: 1,
          amountUsd: 79_000,
          block: HEAD_BLOCK - 280,
        }),
      ],
      // the sum over both pools dips for a few blocks, then is back
      liquidityHistory: withTail(input, [80_000, 0, 79_000, 79_500]),
      liquidityUsd: 79_500,
    });
    expect(result.migrations).toHaveLength(1);
    expect(result.providerRemovedShare).toBe(0);
    expect(result.flag).toBeNull();
  });

  it("is still raised when the provider re-adds only a token amount afterwards", () => {
    const input = rugged([1]);
    input.liquidityChanges.push(
      liquidityChange({ kind: "add", provider: creator, amountUsd: 500, block: HEAD_BLOCK - 480 }),
    );
    expect(stability(input).flag).not.toBeNull();
  });

  it("is not raised for ordinary providers taking part of the pool out", () => {
    const input = healthyToken();
    const changes = [1, 2, 3].map((i) =>
      liquidityChange({ kind: "remove", provider: addr(`lp${i}`), shareOfPool: 0.2, amountUsd: 16_000 }),
    );
    const result = stability({
      ...input,
      liquidityChanges: [...input.liquidityChanges, ...changes],
      liquidityHistory: withTail(input, [80_000, 64_000, 51_000, 41_000]),
      liquidityUsd: 41_000,
    });
    expect(result.flag).toBeNull();
    expect(result.score).toBeGreaterThan(0);
  });
});

describe("liquidity_stability_score", () => {
  it("is low for a stable pool and leaves an unknown LP lock out", () => {
    const input = healthyToken();
    const unknownLock = stability(input).score!;
    expect(unknownLock).toBeLessThan(10);
    expect(stability({ ...input, lpLockedShare: 1 }).score).toBeLessThan(unknownLock + 1);
    expect(stability({ ...input, lpLockedShare: 0 }).score).toBeGreaterThan(15);
  });

  it("keeps the realized score, without the unlocked LP, for the severe floor", () => {
    const input = rugged([0.5]);
    const unlocked = stability({ ...input, lpLockedShare: 0 });
    expect(unlocked.realizedScore).toBe(stability({ ...input, lpLockedShare: null }).score);
    expect(unlocked.score).toBeGreaterThan(unlocked.realizedScore!);
    expect(
      stability({ ...healthyToken(), liquidityUsd: 0, liquidityHistory: [], liquidityChanges: [] }).realizedScore,
    ).toBeNull();
  });

  it("rises when liquidity is thin against market cap", () => {
    const input = healthyToken();
    expect(stability({ ...input, marketCapUsd: 80_000 / 0.01 }).score).toBeGreaterThan(stability(input).score!);
  });

  it("is unknown for a token that never had liquidity", () => {
    expect(
      stability({ ...healthyToken(), liquidityUsd: 0, liquidityHistory: [], liquidityChanges: [] }).score,
    ).toBeNull();
  });
});
