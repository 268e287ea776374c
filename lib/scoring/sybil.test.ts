import { describe, expect, it } from "vitest";
import { addr, HEAD_BLOCK, healthyToken, holder, LAUNCH_BLOCK, SUPPLY, swap } from "./__fixtures__/token";
import { resolveEntities } from "./entities";
import { scoreTokenRisk } from "./risk";
import { sybilCluster } from "./sybil";
import type { Swap, TokenRiskInput } from "./token-input";

function sybil(input: TokenRiskInput) {
  const resolver = resolveEntities(
    [...input.swaps, ...input.earlyBuys].map((s) => ({ address: s.wallet, clusterId: s.clusterId })),
    input.clusters,
  );
  return sybilCluster(input, resolver);
}

/** `n` wallets of `funder` buying `share` of supply each, at the blocks `blockOf(i)`. */
function buyers(
  n: number,
  funder: string,
  clusterId: string | null,
  share: number,
  blockOf: (i: number) => number,
): Swap[] {
  return Array.from({ length: n }, (_, i) =>
    swap({
      wallet: addr(`${clusterId ?? "u"}${i}`),
      direction: "buy",
      funder,
      clusterId,
      block: blockOf(i),
      tokenAmount: share * SUPPLY,
    }),
  );
}

function plant(buys: Swap[], clusters: TokenRiskInput["clusters"], hold = true): TokenRiskInput {
  const input = healthyToken();
  const early = buys.filter((b) => b.block <= LAUNCH_BLOCK + 20);
  return {
    ...input,
    clusters,
    earlyBuys: [...input.earlyBuys, ...early],
    swaps: [...input.swaps, ...buys.filter((b) => !early.includes(b))],
    holders: [
      ...input.holders,
      ...(hold ? buys.map((b) => holder(b.wallet, b.tokenAmount, { clusterId: b.clusterId })) : []),
    ],
  };
}

describe("sybil_cluster", () => {
  it("is raised for wallets of one funder bundling a buy in the launch block", () => {
    const funder = addr("f1");
    const result = sybil(
      plant(
        buyers(5, funder, "k1", 0.03, () => LAUNCH_BLOCK + 1),
        [{ id: "k1", size: 5 }],
      ),
    );
    expect(result?.funder).toBe(funder);
    expect(result?.wallets).toHaveLength(5);
    expect(result?.metrics.supply_share).toBeCloseTo(0.15);
    expect(result?.tx_hashes).toHaveLength(5);
  });

  it("stays raised after the bundle sold: what it bought at launch counts", () => {
    const input = plant(
      buyers(5, addr("f1"), "k1", 0.03, () => LAUNCH_BLOCK + 1),
      [{ id: "k1", size: 5 }],
      false,
    );
    expect(sybil(input)).not.toBeNull();
  });

  it("is raised for a managed cluster of many wallets buying over time", () => {
    const input = plant(
      buyers(6, addr("f2"), "k2", 0.02, (i) => HEAD_BLOCK - 5_000 + i * 300),
      [{ id: "k2", size: 6 }],
    );
    const result = sybil(input);
    expect(result?.metrics.cluster_wallets).toBe(6);
    expect(scoreTokenRisk(input).riskScore).toBeGreaterThanOrEqual(50);
  });

  it("is not raised for a small group or a small share of supply", () => {
    expect(
      sybil(
        plant(
          buyers(3, addr("f1"), "k1", 0.05, () => LAUNCH_BLOCK + 1),
          [{ id: "k1", size: 3 }],
        ),
      ),
    ).toBeNull();
    expect(
      sybil(
        plant(
          buyers(6, addr("f1"), "k1", 0.01, () => LAUNCH_BLOCK + 1),
          [{ id: "k1", size: 6 }],
        ),
      ),
    ).toBeNull();
  });

  it("is not raised for exchange customers buying at different times", () => {
    const cex = addr("cex");
    const input = plant(
      buyers(30, cex, "cex", 0.01, (i) => LAUNCH_BLOCK + 3 + i * 700),
      [{ id: "cex", size: 10_000 }],
    );
    expect(sybil(input)).toBeNull();
    expect(scoreTokenRisk(input).flags).toEqual([]);
  });

  it("is raised when exchange-funded wallets do buy in the same launch block together", () => {
    const cex = addr("cex");
    const input = plant(
      buyers(4, cex, "cex", 0.03, () => LAUNCH_BLOCK + 2),
      [{ id: "cex", size: 10_000 }],
    );
    expect(sybil(input)?.metrics.same_block_wallets).toBe(4);
  });

  it("is not raised for airdrop recipients, who received but did not buy", () => {
    const input = healthyToken();
    input.clusters = [{ id: "drop", size: 50 }];
    input.holders.push(
      ...Array.from({ length: 50 }, (_, i) => holder(addr(`a${i}`), 0.004 * SUPPLY, { clusterId: "drop" })),
    );
    expect(sybil(input)).toBeNull();
  });
});
