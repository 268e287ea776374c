/**
 * The sybil_cluster flag: one actor buying through many wallets. Two signatures: wallets of one
 * funder buying in the same block right after launch (a bundled buy; Codex "bundler"), or a
 * managed funding cluster with many wallets buying the token (Arbitrum sybil funder graphs,
 * HasciDB batch wallets). Either counts only when the group holds, or bought at launch, a real
 * share of supply. Shared funders alone are not enough: an exchange hot wallet funds thousands
 * of unrelated users, who neither form a managed cluster nor buy in one block together.
 */
import { circulatingSupply, isRealHolder } from "./concentration";
import { type EntityResolver, groupBy, groupByEntity, isClusterEntity } from "./entities";
import { type FlagEvidence, flagEvidence } from "./evidence";
import { sum } from "./ramp";
import type { Holder, Swap, TokenFacts } from "./token-input";
import { SYBIL_CLUSTER_FLAG } from "./weights";

export type SybilInput = {
  token: TokenFacts;
  holders: Holder[];
  /** Buys in the early-mover window (already filtered). */
  earlyBuys: Swap[];
  /** Recent swaps. */
  swaps: Swap[];
};

type Group = { kind: "same_block_wallets" | "cluster_wallets"; buys: Swap[] };

const walletsOf = (buys: Swap[]) => [...new Set(buys.map((b) => b.wallet))];

function sameBlockGroups(earlyBuys: Swap[]): Group[] {
  const funded = earlyBuys.filter((b) => b.funder);
  return [...groupBy(funded, (b) => `${b.block}|${b.funder}`).values()]
    .filter((buys) => walletsOf(buys).length >= SYBIL_CLUSTER_FLAG.same_block_wallets)
    .map((buys) => ({ kind: "same_block_wallets", buys }));
}

function clusterGroups(buys: Swap[], resolver: EntityResolver): Group[] {
  return [...groupByEntity(buys, (b) => b.wallet, resolver)]
    .filter(([entity, list]) => isClusterEntity(entity) && walletsOf(list).length >= SYBIL_CLUSTER_FLAG.cluster_wallets)
    .map(([, list]) => ({ kind: "cluster_wallets", buys: list }));
}

/** The funding signal is missing when wallets bought or hold the token and not one of them has a known funder. */
export function fundingMissing(input: SybilInput): boolean {
  const wallets = [...input.earlyBuys, ...input.swaps, ...input.holders.filter(isRealHolder)];
  return wallets.length > 0 && !wallets.some((w) => w.funder);
}

export function sybilCluster(input: SybilInput, resolver: EntityResolver): FlagEvidence | null {
  const supply = circulatingSupply(input.token, input.holders);
  if (supply <= 0) return null;
  const balances = new Map(input.holders.map((h) => [h.address, h.balance]));
  const buys = [...input.earlyBuys, ...input.swaps.filter((s) => s.direction === "buy")];
  const candidates = [...sameBlockGroups(input.earlyBuys), ...clusterGroups(buys, resolver)].map((g) => {
    const wallets = walletsOf(g.buys);
    const holding = sum(wallets.map((w) => balances.get(w) ?? 0)) / supply;
    const boughtAtLaunch =
      sum(input.earlyBuys.filter((b) => wallets.includes(b.wallet)).map((b) => b.tokenAmount)) / supply;
    return { ...g, wallets, supplyShare: Math.max(holding, boughtAtLaunch) };
  });
  const best = candidates
    .filter((c) => c.supplyShare >= SYBIL_CLUSTER_FLAG.supply_share)
    .sort((a, b) => b.supplyShare - a.supplyShare)[0];
  if (!best) return null;
  return flagEvidence("sybil_cluster", {
    wallets: best.wallets,
    txHashes: best.buys.map((b) => b.txHash),
    funder: best.buys.find((b) => b.funder)?.funder ?? null,
    metrics: { wallets: best.wallets.length, [best.kind]: best.wallets.length, supply_share: best.supplyShare },
    thresholds: { ...SYBIL_CLUSTER_FLAG },
    tripped: [best.kind, "supply_share"],
  });
}
