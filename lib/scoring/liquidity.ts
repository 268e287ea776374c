/**
 * liquidity_stability_score and the liquidity_pulled flag. A pull is either one provider
 * taking most of the pool out (Chainalysis: one address withdrawing >70%; Mazorra et al.), or
 * liquidity collapsing within a day without coming back while the pool's own provider sells
 * into it (a sell-side rug). Removing liquidity and re-adding it soon after is a migration and
 * counts as neither; a collapse that others' selling causes (a pump and its unwinding) is no pull.
 */
import type { EntityResolver } from "./entities";
import { type FlagEvidence, flagEvidence } from "./evidence";
import { rampScore, sum } from "./ramp";
import type { LiquidityChange, LiquidityPoint, Swap } from "./token-input";
import { LIQUIDITY_PULLED_FLAG, LIQUIDITY_STABILITY_SCORE, LP_MIGRATION } from "./weights";

export type LiquidityInput = {
  liquidityUsd: number;
  marketCapUsd: number;
  liquidityHistory: LiquidityPoint[];
  liquidityChanges: LiquidityChange[];
  lpLockedShare: number | null;
  /** Recent swaps: the sellers of a collapse are named in its evidence. */
  swaps: Swap[];
};

export type LiquidityResult = {
  /** Null when the token never had liquidity: there is no pool to be stable or not. */
  score: number | null;
  /**
   * The score without unlocked_lp_share: the instability that happened (drawdown, removals, a
   * thin pool), which the severe-dimension floor judges. An unlocked LP is a risk that may never
   * be taken; the weighted score carries it, the floor does not.
   */
  realizedScore: number | null;
  drawdown: number;
  largestRemovalShare: number;
  providerRemovedShare: number;
  fastDrawdown: number;
  migrations: LiquidityChange[];
  flag: FlagEvidence | null;
};

/** Removals re-added (≥ minReaddShare of their USD) by the same provider within the window. */
function isMigration(removal: LiquidityChange, changes: LiquidityChange[]): boolean {
  const readded = changes
    .filter(
      (c) =>
        c.kind === "add" &&
        c.provider === removal.provider &&
        c.block >= removal.block &&
        c.block <= removal.block + LP_MIGRATION.readdWithinBlocks,
    )
    .reduce((total, c) => total + c.amountUsd, 0);
  return readded >= LP_MIGRATION.minReaddShare * removal.amountUsd;
}

/** Per provider, the share of the pool its removals took, compounded: 1 − Π(1 − shareᵢ). */
function removedShareByProvider(removals: LiquidityChange[]) {
  const kept = new Map<string, number>();
  for (const r of removals) kept.set(r.provider, (kept.get(r.provider) ?? 1) * (1 - Math.min(1, r.shareOfPool)));
  return [...kept].map(([provider, k]) => ({ provider, share: 1 - k })).sort((a, b) => b.share - a.share);
}

/** The largest fall within `windowSeconds`, and when it started (the window's peak) and ended. */
function largestFastDrop(history: LiquidityPoint[], windowSeconds: number) {
  const points = [...history].sort((a, b) => a.timestamp - b.timestamp || a.block - b.block);
  let best = { drop: 0, from: 0, to: 0 };
  const peaks: LiquidityPoint[] = []; // monotonic deque: decreasing liquidity, within the window
  for (const p of points) {
    while (peaks.length && peaks[0].timestamp < p.timestamp - windowSeconds) peaks.shift();
    while (peaks.length && peaks[peaks.length - 1].liquidityUsd <= p.liquidityUsd) peaks.pop();
    peaks.push(p);
    const peak = peaks[0];
    const drop = peak.liquidityUsd > 0 ? 1 - p.liquidityUsd / peak.liquidityUsd : 0;
    if (drop > best.drop) best = { drop, from: peak.timestamp, to: p.timestamp };
  }
  return best;
}

/** Share of the sell volume that entities of the pool's providers (whoever added liquidity) sold. */
function providerSellShare(sells: Swap[], changes: LiquidityChange[], resolver: EntityResolver): number {
  const owners = new Set(changes.filter((c) => c.kind === "add").map((c) => resolver.entityOf(c.provider)));
  const total = sum(sells.map((s) => s.amountUsd));
  return total > 0
    ? sum(sells.filter((s) => owners.has(resolver.entityOf(s.wallet))).map((s) => s.amountUsd)) / total
    : 0;
}

export function liquidityStability(input: LiquidityInput, resolver: EntityResolver): LiquidityResult {
  const peak = Math.max(input.liquidityUsd, ...input.liquidityHistory.map((p) => p.liquidityUsd));
  const drawdown = peak > 0 ? 1 - input.liquidityUsd / peak : 0;

  const removals = input.liquidityChanges.filter((c) => c.kind === "remove");
  const migrations = removals.filter((r) => isMigration(r, input.liquidityChanges));
  const pulls = removals.filter((r) => !migrations.includes(r));
  const largestRemovalShare = Math.max(0, ...pulls.map((r) => r.shareOfPool));
  const [topProvider] = removedShareByProvider(pulls);
  const providerRemovedShare = topProvider?.share ?? 0;

  const t = LIQUIDITY_PULLED_FLAG;
  const fast = largestFastDrop(input.liquidityHistory, t.fastDrawdownSeconds);

  const terms = (unlockedLpShare: number | null) =>
    rampScore(
      {
        drawdown,
        largest_removal_share: largestRemovalShare,
        unlocked_lp_share: unlockedLpShare,
        liquidity_to_mcap: input.marketCapUsd > 0 ? input.liquidityUsd / input.marketCapUsd : null,
      },
      LIQUIDITY_STABILITY_SCORE,
    );
  const score = peak > 0 ? terms(input.lpLockedShare === null ? null : 1 - input.lpLockedShare) : null;
  const realizedScore = peak > 0 ? terms(null) : null;

  const thresholds = {
    provider_removed_share: t.provider_removed_share,
    fast_drawdown: t.fast_drawdown,
    provider_sell_share: t.provider_sell_share,
  };
  const fallSells = input.swaps
    .filter((s) => s.direction === "sell" && s.timestamp >= fast.from && s.timestamp <= fast.to)
    .sort((a, b) => b.amountUsd - a.amountUsd);
  const ownerSellShare = providerSellShare(fallSells, input.liquidityChanges, resolver);
  let flag: FlagEvidence | null = null;
  if (topProvider && providerRemovedShare >= t.provider_removed_share) {
    const theirs = pulls.filter((r) => r.provider === topProvider.provider);
    flag = flagEvidence("liquidity_pulled", {
      wallets: [topProvider.provider],
      txHashes: theirs.map((r) => r.txHash),
      funder: null,
      metrics: { provider_removed_share: providerRemovedShare, largest_removal_share: largestRemovalShare, drawdown },
      thresholds,
      tripped: ["provider_removed_share"],
    });
  } else if (fast.drop >= t.fast_drawdown && drawdown >= t.fast_drawdown && ownerSellShare >= t.provider_sell_share) {
    flag = flagEvidence("liquidity_pulled", {
      wallets: fallSells.map((s) => s.wallet),
      txHashes: fallSells.map((s) => s.txHash),
      funder: null,
      metrics: {
        fast_drawdown: fast.drop,
        drawdown,
        provider_sell_share: ownerSellShare,
        provider_removed_share: providerRemovedShare,
      },
      thresholds,
      tripped: ["fast_drawdown", "drawdown", "provider_sell_share"],
    });
  }
  return {
    score,
    realizedScore,
    drawdown,
    largestRemovalShare,
    providerRemovedShare,
    fastDrawdown: fast.drop,
    migrations,
    flag,
  };
}
