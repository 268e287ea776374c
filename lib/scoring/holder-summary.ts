/**
 * top_holder_summary: how many wallets bought in the first blocks after launch, what those
 * early movers are doing now, and the ten largest real holders, whose mean reputation the API
 * reads with the response (lib/queries/scores.ts).
 */

import type { NetActivity } from "@/lib/domain/vocab";
import { isRealHolder } from "./concentration";
import { netActivity, recentFlows } from "./net-activity";
import { NO_EVIDENCE_REPUTATION } from "./no-evidence";
import { sum } from "./ramp";
import type { Holder, Swap } from "./token-input";
import { TOP_HOLDERS_FOR_REPUTATION } from "./weights";

export type TopHolderSummary = {
  earlyMoverCount: number;
  earlyMoverNetActivity: NetActivity;
  /** The largest real holders, whose mean reputation (averageReputation) is read with their scores. */
  reputationHolders: string[];
};

/** `earlyBuys` are already limited to the early-mover window, `swaps` to the recent one. */
export function topHolderSummary(holders: Holder[], earlyBuys: Swap[], swaps: Swap[], now: number): TopHolderSummary {
  const movers = new Set(earlyBuys.map((b) => b.wallet));
  const balances = new Map(holders.map((h) => [h.address, h.balance]));
  // With no early movers there is no movement to describe: "holding", the stored default.
  const earlyMoverNetActivity: NetActivity =
    movers.size === 0
      ? "holding"
      : netActivity({
          balance: sum([...movers].map((w) => balances.get(w) ?? 0)),
          ...recentFlows(
            swaps.filter((s) => movers.has(s.wallet)),
            now,
          ),
        });

  const reputationHolders = holders
    .filter(isRealHolder)
    .sort((a, b) => b.balance - a.balance || a.address.localeCompare(b.address))
    .slice(0, TOP_HOLDERS_FOR_REPUTATION)
    .map((h) => h.address);
  return { earlyMoverCount: movers.size, earlyMoverNetActivity, reputationHolders };
}

/** avg_reputation_top10: the mean over the reputation holders that have a score; no evidence when none has. */
export const averageReputation = (scores: number[]) =>
  scores.length ? sum(scores) / scores.length : NO_EVIDENCE_REPUTATION;
