"use client";

import { isStale } from "@/lib/domain/vocab";
import type { Status } from "@/lib/queries/status";
import { formatInteger } from "./format";
import { useDashboardQuery } from "./use-dashboard-query";

export type IndexerStatus = Status;

/** The dashboard's status route; every component asking for it shares one query. */
export const STATUS_URL = "/api/status";

/**
 * GET /v1/status as the dashboard sees it, refreshed on each message of the live feed (a ping at
 * least every 10 s); `initial` is the server's answer.
 */
export function useIndexerStatus(initial?: IndexerStatus): IndexerStatus | undefined {
  const query = useDashboardQuery<IndexerStatus>(STATUS_URL, {
    initial: initial && { url: STATUS_URL, data: initial },
    live: "status",
  });
  return query.data ?? initial;
}

/** Why the data is not live, in a few words ("indexer not running"); null when it is. */
export function staleSummary(status: IndexerStatus | undefined): string | null {
  if (!status || !isStale(status)) return null;
  if (status.reasons.includes("worker_down")) return "the indexer is not running";
  if (status.reasons.includes("chain_unreachable")) return "the chain cannot be reached";
  const seconds = status.lag_seconds === null ? "" : `, ${formatInteger(status.lag_seconds)} s`;
  return `${formatInteger(status.lag_blocks ?? 0)} blocks${seconds} behind the chain`;
}

/**
 * Says so, above every page, when the data may be out of date (the indexer is down or behind the
 * chain, or the chain cannot be reached) or indexing needs attention (failures, quarantined
 * entities), in the status's own words. Nothing when the status is healthy.
 */
export function StaleDataBanner({ initial }: { initial?: IndexerStatus }) {
  const status = useIndexerStatus(initial);
  if (!status || status.healthy) return null;
  const stale = isStale(status);
  const headline = stale ? "Data may be out of date." : "Indexing needs attention.";
  return (
    <div
      role="status"
      data-testid="stale-data-banner"
      className={`border-b px-4 py-2 text-sm ${
        stale
          ? "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
          : "border-zinc-200 bg-zinc-100 text-zinc-800 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-200"
      }`}
    >
      <p className="mx-auto max-w-7xl">
        <strong className="font-semibold">{headline}</strong> {status.message}
      </p>
    </div>
  );
}
