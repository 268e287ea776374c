import { describe, expect, it } from "vitest";
import { addr, HEAD_BLOCK, healthyToken, holder, LAUNCH_BLOCK, randomToken, SUPPLY, swap } from "./__fixtures__/token";
import { resolveEntities } from "./entities";
import type { FlagEvidence } from "./evidence";
import { EVIDENCE_METRICS, readableMetrics } from "./evidence-labels";
import { scoreTokenRisk } from "./risk";
import { sybilCluster } from "./sybil";
import { washTrading } from "./wash";

/** Evidence of every flag and of both ways to raise sybil_cluster and liquidity_pulled. */
function evidenceOfEveryKind(): FlagEvidence[] {
  const random = Array.from({ length: 300 }, (_, i) => scoreTokenRisk(randomToken(i + 1)).flagEvidence).flat();
  const washer = addr("wash");
  const trips = Array.from({ length: 6 }, (_, i) => [
    swap({
      wallet: washer,
      direction: "buy",
      block: HEAD_BLOCK - 5_000 + i * 400,
      tokenAmount: 400_000,
      amountUsd: 2_000,
    }),
    swap({
      wallet: washer,
      direction: "sell",
      block: HEAD_BLOCK - 4_970 + i * 400,
      tokenAmount: 399_500,
      amountUsd: 1_990,
    }),
  ]).flat();
  const resolver = resolveEntities(
    trips.map((s) => ({ address: s.wallet, clusterId: null })),
    [],
  );
  const wash = washTrading(trips, resolver).flag!;
  const funder = addr("f1");
  const bundle = Array.from({ length: 5 }, (_, i) =>
    swap({
      wallet: addr(`b${i}`),
      direction: "buy",
      funder,
      clusterId: null,
      block: LAUNCH_BLOCK + 1,
      tokenAmount: 0.03 * SUPPLY,
    }),
  );
  const token = healthyToken();
  const sybil = sybilCluster(
    {
      token: token.token,
      holders: [...token.holders, ...bundle.map((b) => holder(b.wallet, b.tokenAmount))],
      earlyBuys: bundle,
      swaps: [],
    },
    resolveEntities(
      bundle.map((b) => ({ address: b.wallet, clusterId: null })),
      [],
    ),
  )!;
  return [...random, wash, sybil];
}

describe("evidence labels", () => {
  const evidence = evidenceOfEveryKind();

  it("cover every flag, and both sybil and both pull signatures", () => {
    expect(new Set(evidence.map((e) => e.flag))).toEqual(new Set(Object.keys(EVIDENCE_METRICS)));
    expect(evidence.some((e) => e.metrics.same_block_wallets !== undefined)).toBe(true);
    expect(evidence.some((e) => e.metrics.cluster_wallets !== undefined)).toBe(true);
    expect(evidence.some((e) => e.tripped.includes("fast_drawdown"))).toBe(true);
    expect(evidence.some((e) => e.tripped.includes("provider_removed_share"))).toBe(true);
  });

  it("give every metric the evidence records a label and a unit, and a condition to every tripped one", () => {
    for (const e of evidence) {
      const readable = readableMetrics(e);
      expect(readable.map((m) => m.name).sort()).toEqual(Object.keys(e.metrics).sort());
      expect(e.tripped.length).toBeGreaterThan(0);
      for (const name of e.tripped) expect(readable.find((m) => m.name === name)?.condition).toMatch(/\d/);
    }
  });

  it("name the condition that tripped concentrated ownership", () => {
    const e: FlagEvidence = {
      flag: "concentrated_ownership",
      wallets: [],
      tx_hashes: [],
      wallet_count: 0,
      tx_count: 0,
      funder: null,
      metrics: { top1_share: 0.181, top10_share: 0.289, hhi: 0.0342, owners: 94 },
      thresholds: { top10_share: 0.5, top1_share: 0.15 },
      tripped: ["top1_share"],
    };
    expect(readableMetrics(e)).toEqual([
      {
        name: "top1_share",
        label: "Largest owner's share of circulating supply",
        value: "18.1%",
        condition: "flagged at 15% or more",
        tripped: true,
      },
      {
        name: "top10_share",
        label: "Ten largest owners' share of circulating supply",
        value: "28.9%",
        condition: "or flagged at 50% or more",
        tripped: false,
      },
      {
        name: "hhi",
        label: "Herfindahl index: sum of squared owner shares (1 = one owner)",
        value: "0.034",
        condition: null,
        tripped: false,
      },
      {
        name: "owners",
        label: "Owners (a funder's wallets counted as one)",
        value: "94",
        condition: null,
        tripped: false,
      },
    ]);
  });
});
