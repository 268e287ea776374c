/**
 * holder_concentration_score: how much of the supply few owners control. Pools, burn
 * addresses and contracts are not owners; wallets of one managed funding cluster are one owner.
 */
import type { EntityResolver } from "./entities";
import { type FlagEvidence, flagEvidence } from "./evidence";
import { rampScore, sum } from "./ramp";
import type { Holder, TokenFacts } from "./token-input";
import { CONCENTRATED_OWNERSHIP_FLAG, HOLDER_CONCENTRATION_SCORE } from "./weights";

export type Owner = { entity: string; share: number; wallets: string[]; funder: string | null };

export type ConcentrationResult = {
  /** Null without owners: nobody holds the supply to measure. */
  score: number | null;
  top1Share: number;
  top10Share: number;
  hhi: number;
  /** Owners by share, largest first. */
  owners: Owner[];
  flag: FlagEvidence | null;
};

export const isRealHolder = (h: Holder) => h.tags.length === 0;

/** Supply that exists: total supply minus what sits at burn addresses. */
export function circulatingSupply(token: TokenFacts, holders: Holder[]): number {
  return token.totalSupply - sum(holders.filter((h) => h.tags.includes("burn")).map((h) => h.balance));
}

function owners(holders: Holder[], supply: number, resolver: EntityResolver): Owner[] {
  const byEntity = new Map<string, Owner>();
  for (const h of holders) {
    if (!isRealHolder(h) || h.balance <= 0) continue;
    const entity = resolver.entityOf(h.address);
    const owner = byEntity.get(entity) ?? { entity, share: 0, wallets: [], funder: null };
    owner.share += supply > 0 ? h.balance / supply : 0;
    owner.wallets.push(h.address);
    // A holding funder is the cluster's owner itself (entities.ts), not a member with a funder.
    if (entity === `cluster:${h.address}`) owner.funder = h.address;
    else if (entity !== h.address) owner.funder ??= h.funder;
    byEntity.set(entity, owner);
  }
  return [...byEntity.values()].sort((a, b) => b.share - a.share || a.entity.localeCompare(b.entity));
}

export function holderConcentration(
  token: TokenFacts,
  holders: Holder[],
  resolver: EntityResolver,
): ConcentrationResult {
  const ranked = owners(holders, circulatingSupply(token, holders), resolver);
  const top1Share = ranked[0]?.share ?? 0;
  const top10 = ranked.slice(0, 10);
  const top10Share = sum(top10.map((o) => o.share));
  const hhi = sum(ranked.map((o) => o.share ** 2));
  const score = ranked.length
    ? rampScore({ top10_share: top10Share, hhi, top1_share: top1Share }, HOLDER_CONCENTRATION_SCORE)
    : null;

  const t = CONCENTRATED_OWNERSHIP_FLAG;
  const tripped = [
    ...(top1Share >= t.top1_share ? ["top1_share"] : []),
    ...(top10Share >= t.top10_share ? ["top10_share"] : []),
  ];
  const flag = tripped.length
    ? flagEvidence("concentrated_ownership", {
        wallets: top10.flatMap((o) => o.wallets),
        txHashes: [],
        funder: ranked[0].funder,
        metrics: { top1_share: top1Share, top10_share: top10Share, hhi, owners: ranked.length },
        thresholds: { ...t },
        tripped,
      })
    : null;
  return { score, top1Share, top10Share, hhi, owners: ranked, flag };
}
