/**
 * wash_trade_score and the wash_trading flag. On an AMM a wash trader has no counterparty to
 * collude with, so it round-trips: a buy and a sell of (nearly) the same token amount within
 * minutes, by one wallet or by wallets of one managed funding cluster (Chainalysis 2025;
 * Victor & Weintraud: near-zero net position of a trader group). The volume of entities whose
 * trading is mostly such round trips is the wash volume, a lower bound like theirs.
 */
import { type EntityResolver, groupByEntity, isClusterEntity } from "./entities";
import { type FlagEvidence, flagEvidence } from "./evidence";
import { rampScore, sum } from "./ramp";
import type { Swap, Trade } from "./token-input";
import { WASH_MATCHING, WASH_TRADE_SCORE, WASH_TRADING_FLAG } from "./weights";

const byTime = (a: Trade, b: Trade) =>
  a.timestamp - b.timestamp || a.block - b.block || a.txHash.localeCompare(b.txHash);

const amountsMatch = (a: number, b: number) => {
  const larger = Math.max(a, b);
  return larger > 0 && Math.abs(a - b) <= WASH_MATCHING.maxAmountDiff * larger;
};

/** Pairs each trade with the next unmatched opposite trade of matching amount in the window. */
export function matchRoundTrips<T extends Trade>(trades: T[]): [T, T][] {
  const sorted = [...trades].sort(byTime);
  const used = new Set<number>();
  const trips: [T, T][] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (used.has(i)) continue;
    const open = sorted[i];
    for (let j = i + 1; j < sorted.length && sorted[j].timestamp - open.timestamp <= WASH_MATCHING.windowSeconds; j++) {
      const close = sorted[j];
      if (used.has(j) || close.direction === open.direction || !amountsMatch(open.tokenAmount, close.tokenAmount))
        continue;
      used.add(i).add(j);
      trips.push([open, close]);
      break;
    }
  }
  return trips;
}

export type RoundTripStats = { roundTrips: number; matchedVolumeUsd: number; volumeUsd: number; txHashes: string[] };

/** Round trips of one trader (wallet or entity) in one token. */
export function roundTripStats(trades: Trade[]): RoundTripStats {
  const trips = matchRoundTrips(trades);
  return {
    roundTrips: trips.length,
    matchedVolumeUsd: sum(trips.flat().map((t) => t.amountUsd)),
    volumeUsd: sum(trades.map((t) => t.amountUsd)),
    txHashes: trips.flat().map((t) => t.txHash),
  };
}

const matchedShare = (s: RoundTripStats) => (s.volumeUsd > 0 ? s.matchedVolumeUsd / s.volumeUsd : 0);

/** Enough round trips, and they are most of what the trader does (not a market maker's chance matches). */
export const isWashTrader = (s: RoundTripStats) =>
  s.roundTrips >= WASH_MATCHING.minRoundTrips && matchedShare(s) >= WASH_MATCHING.minMatchedShare;

export type WashResult = {
  /** Null without trades in the window: there is no volume to judge. */
  score: number | null;
  washShare: number;
  topClusterVolumeShare: number;
  flag: FlagEvidence | null;
};

export function washTrading(swaps: Swap[], resolver: EntityResolver): WashResult {
  const volume = sum(swaps.map((s) => s.amountUsd));
  const entities = [...groupByEntity(swaps, (s) => s.wallet, resolver)].map(([entity, trades]) => ({
    entity,
    trades,
    stats: roundTripStats(trades),
  }));
  const washers = entities
    .filter((e) => isWashTrader(e.stats))
    .sort((a, b) => b.stats.matchedVolumeUsd - a.stats.matchedVolumeUsd);
  const washShare = volume > 0 ? sum(washers.map((e) => e.stats.matchedVolumeUsd)) / volume : 0;
  const clusterVolumes = entities.filter((e) => isClusterEntity(e.entity)).map((e) => e.stats.volumeUsd);
  const topClusterVolumeShare = volume > 0 ? Math.max(0, ...clusterVolumes) / volume : 0;
  const score = swaps.length
    ? rampScore({ wash_share: washShare, top_cluster_volume_share: topClusterVolumeShare }, WASH_TRADE_SCORE)
    : null;

  const top = washers[0];
  const flag =
    top && washShare >= WASH_TRADING_FLAG.wash_share
      ? flagEvidence("wash_trading", {
          wallets: washers.flatMap((e) => e.trades.map((t) => t.wallet)),
          txHashes: washers.flatMap((e) => e.stats.txHashes),
          funder: isClusterEntity(top.entity) ? (top.trades.find((t) => t.funder)?.funder ?? null) : null,
          metrics: {
            wash_share: washShare,
            wash_volume_usd: washShare * volume,
            round_trips: top.stats.roundTrips,
            matched_share: matchedShare(top.stats),
            wash_entities: washers.length,
          },
          thresholds: {
            wash_share: WASH_TRADING_FLAG.wash_share,
            round_trips: WASH_MATCHING.minRoundTrips,
            matched_share: WASH_MATCHING.minMatchedShare,
          },
          tripped: ["wash_share"],
        })
      : null;
  return { score, washShare, topClusterVolumeShare, flag };
}
