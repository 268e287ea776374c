import { describe, expect, it } from "vitest";
import { addr, healthyToken, holder, SUPPLY } from "./__fixtures__/token";
import { holderConcentration } from "./concentration";
import { resolveEntities } from "./entities";
import type { Holder, TokenRiskInput } from "./token-input";

function concentration(input: TokenRiskInput) {
  const resolver = resolveEntities(
    input.holders.filter((h) => h.tags.length === 0).map((h) => ({ address: h.address, clusterId: h.clusterId })),
    input.clusters,
  );
  return holderConcentration(input.token, input.holders, resolver);
}

/** The healthy token with `planted` holders taking supply from the pool. */
function withHolders(planted: Holder[], clusters: TokenRiskInput["clusters"] = []): TokenRiskInput {
  const input = healthyToken();
  const taken = planted.reduce((s, h) => s + h.balance, 0);
  const holders = input.holders.map((h) => (h.tags.includes("pool") ? { ...h, balance: h.balance - taken } : h));
  return { ...input, holders: [...holders, ...planted], clusters };
}

describe("holder_concentration_score", () => {
  it("is low for a widely held token and ignores the pool's share", () => {
    const result = concentration(healthyToken());
    expect(result.top10Share).toBeLessThan(0.05);
    expect(result.score).toBeLessThan(5);
    expect(result.flag).toBeNull();
  });

  it("raises concentrated_ownership for one wallet holding a fifth of supply", () => {
    const whale = addr("w001");
    const result = concentration(withHolders([holder(whale, 0.2 * SUPPLY)]));
    expect(result.top1Share).toBeCloseTo(0.2, 2);
    expect(result.flag?.wallets[0]).toBe(whale);
    expect(result.flag?.metrics.top1_share).toBeCloseTo(0.2, 2);
    expect(result.flag?.thresholds).toEqual({ top10_share: 0.5, top1_share: 0.15 });
  });

  it("merges the wallets of one managed funding cluster into one owner", () => {
    const funder = addr("f001");
    const members = Array.from({ length: 5 }, (_, i) =>
      holder(addr(`s${i}`), 0.04 * SUPPLY, { clusterId: "k1", funder }),
    );
    const merged = concentration(withHolders(members, [{ id: "k1", size: 5 }]));
    expect(merged.top1Share).toBeCloseTo(0.2, 2);
    expect(merged.flag?.funder).toBe(funder);
    expect(merged.flag?.wallets).toEqual(expect.arrayContaining(members.map((m) => m.address)));

    const unclustered = concentration(withHolders(members.map((m) => ({ ...m, clusterId: null }))));
    expect(unclustered.top1Share).toBeCloseTo(0.04, 2);
    expect(unclustered.flag).toBeNull();
  });

  it("counts the funder's own balance with the wallets it funded (a creator and its insiders)", () => {
    const creator = addr("c001");
    // The worker names a cluster after its funder.
    const insiders = [0, 1, 2].map((i) =>
      holder(addr(`i${i}`), 0.03 * SUPPLY, { clusterId: creator, funder: creator }),
    );
    const result = concentration(
      withHolders([holder(creator, 0.12 * SUPPLY), ...insiders], [{ id: creator, size: 3 }]),
    );
    expect(result.top1Share).toBeCloseTo(0.21, 2);
    expect(result.owners[0].wallets).toEqual(expect.arrayContaining([creator, ...insiders.map((i) => i.address)]));
    expect(result.flag?.funder).toBe(creator);
  });

  it("does not merge customers of a hub funder (an exchange hot wallet)", () => {
    const members = Array.from({ length: 5 }, (_, i) => holder(addr(`x${i}`), 0.04 * SUPPLY, { clusterId: "cex" }));
    const result = concentration(withHolders(members, [{ id: "cex", size: 5_000 }]));
    expect(result.top1Share).toBeCloseTo(0.04, 2);
    expect(result.flag).toBeNull();
  });

  it("does not flag many airdrop recipients, even funded by the distributor", () => {
    const recipients = Array.from({ length: 400 }, (_, i) =>
      holder(addr(`a${i}`), 0.001 * SUPPLY, { clusterId: "drop", funder: addr("d001") }),
    );
    const result = concentration(withHolders(recipients, [{ id: "drop", size: 400 }]));
    expect(result.top10Share).toBeLessThan(0.05);
    expect(result.flag).toBeNull();
  });

  it("excludes burn addresses from the supply and contracts from the owners", () => {
    const input = healthyToken();
    input.holders = [
      holder(addr(0), 0.5 * SUPPLY, { tags: ["burn"] }),
      holder(addr("locker"), 0.3 * SUPPLY, { tags: ["contract"] }),
      holder(addr("pool"), 0.1 * SUPPLY, { tags: ["pool"] }),
      holder(addr("w002"), 0.1 * SUPPLY),
    ];
    const result = concentration(input);
    expect(result.owners.map((o) => o.entity)).toEqual([addr("w002")]);
    expect(result.top1Share).toBeCloseTo(0.2); // 10% of the half that is not burned
  });
});
