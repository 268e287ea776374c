import { describe, expect, it } from "vitest";
import { addr, HEAD_BLOCK, healthyToken, rng, swap } from "./__fixtures__/token";
import { resolveEntities } from "./entities";
import type { Swap, TokenRiskInput } from "./token-input";
import { isWashTrader, matchRoundTrips, roundTripStats, washTrading } from "./wash";

function wash(input: TokenRiskInput) {
  const resolver = resolveEntities(
    input.swaps.map((s) => ({ address: s.wallet, clusterId: s.clusterId })),
    input.clusters,
  );
  return washTrading(input.swaps, resolver);
}

/** `n` round trips: `buyer` buys, `seller` sells the same amount 30 blocks (60 s) later. */
function roundTrips(n: number, buyer: (i: number) => Partial<Swap> & { wallet: string }, seller = buyer): Swap[] {
  return Array.from({ length: n }, (_, i) => {
    const block = HEAD_BLOCK - 20_000 + i * 400;
    const tokenAmount = 400_000 + i * 1_000;
    return [
      swap({ ...buyer(i), direction: "buy", block, tokenAmount, amountUsd: 2_000 }),
      swap({ ...seller(i), direction: "sell", block: block + 30, tokenAmount: tokenAmount * 0.998, amountUsd: 1_988 }),
    ];
  }).flat();
}

/** A market maker: frequent two-sided trades of random sizes. */
function marketMaker(wallet: string, n: number, seed = 7): Swap[] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const tokenAmount = 50_000 + r() * 200_000;
    return swap({
      wallet,
      direction: r() < 0.5 ? "buy" : "sell",
      block: HEAD_BLOCK - 30_000 + i * 90,
      tokenAmount,
      amountUsd: tokenAmount / 200,
    });
  });
}

describe("round trip matching", () => {
  it("pairs a buy with the next opposite trade of (nearly) the same amount within the window", () => {
    const w = addr("w1");
    const trips = matchRoundTrips([
      swap({ wallet: w, direction: "buy", block: 100, tokenAmount: 1000 }),
      swap({ wallet: w, direction: "buy", block: 101, tokenAmount: 5000 }),
      swap({ wallet: w, direction: "sell", block: 110, tokenAmount: 995 }),
      swap({ wallet: w, direction: "sell", block: 1000, tokenAmount: 5000 }), // 30 minutes later
    ]);
    expect(trips).toHaveLength(1);
    expect(trips[0].map((t) => t.tokenAmount)).toEqual([1000, 995]);
  });

  it("needs enough round trips making most of the trader's volume", () => {
    const w = addr("w1");
    expect(isWashTrader(roundTripStats(roundTrips(3, () => ({ wallet: w }))))).toBe(true);
    expect(isWashTrader(roundTripStats(roundTrips(2, () => ({ wallet: w }))))).toBe(false);
  });
});

describe("wash_trading", () => {
  it("is raised for a wallet round-tripping a large share of volume", () => {
    const washer = addr("wash1");
    const input = healthyToken();
    input.swaps.push(...roundTrips(30, () => ({ wallet: washer })));
    const result = wash(input);
    expect(result.washShare).toBeGreaterThan(0.4);
    expect(result.score).toBeGreaterThan(60);
    expect(result.flag?.wallets).toEqual([washer]);
    expect(result.flag?.metrics.round_trips).toBe(30);
    expect(result.flag?.tx_hashes.length).toBeGreaterThan(0);
    expect(result.flag?.thresholds.wash_share).toBe(0.25);
  });

  it("is raised for a funding-cluster ring where one wallet buys and another sells", () => {
    const funder = addr("f1");
    const ring = [addr("ring1"), addr("ring2"), addr("ring3")];
    const member = (i: number) => ({ wallet: ring[i % 3], clusterId: "ring", funder });
    const input = healthyToken();
    input.clusters = [{ id: "ring", size: 3 }];
    input.swaps.push(...roundTrips(30, member, (i) => member(i + 1)));
    const result = wash(input);
    expect(result.flag?.funder).toBe(funder);
    expect(result.flag?.wallets.sort()).toEqual([...ring].sort());
    expect(result.topClusterVolumeShare).toBeGreaterThan(0.4);

    // the same trades by unrelated wallets are not round trips of anyone
    const unrelated = { ...input, clusters: [], swaps: input.swaps.map((s) => ({ ...s, clusterId: null })) };
    expect(wash(unrelated).flag).toBeNull();
  });

  it("is not raised for a market maker trading two-sided with random sizes", () => {
    const mm = addr("mm1");
    const input = healthyToken();
    input.swaps.push(...marketMaker(mm, 300));
    const mmVolume = input.swaps.filter((s) => s.wallet === mm).reduce((t, s) => t + s.amountUsd, 0);
    const total = input.swaps.reduce((t, s) => t + s.amountUsd, 0);
    expect(mmVolume / total).toBeGreaterThan(0.5);
    const result = wash(input);
    expect(result.flag).toBeNull();
    expect(result.washShare).toBe(0);
  });

  it("is not raised for a healthy token", () => {
    const result = wash(healthyToken());
    expect(result.flag).toBeNull();
    expect(result.score).toBe(0);
  });
});
