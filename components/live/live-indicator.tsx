"use client";

import { type IndexerStatus, staleSummary, useIndexerStatus } from "../freshness";
import { useLiveState } from "./live-provider";

const SHOWN = {
  live: { text: "Live", dot: "bg-emerald-500", title: "Figures update as blocks are indexed" },
  paused: {
    text: "Paused",
    dot: "bg-zinc-400",
    title: "Updates paused (tab hidden or connection lost); they catch up on return",
  },
  stale: { text: "Not live", dot: "bg-amber-500", title: "" },
} as const;

/**
 * "Live" while the tab follows the market as blocks are indexed; "Paused" while it is hidden or
 * disconnected; "Not live" while the data itself is behind (the indexer is down or lagging: the
 * banner says why), so nothing says Live over stale data.
 */
export function LiveIndicator({ status }: { status?: IndexerStatus }) {
  const connection = useLiveState();
  const stale = staleSummary(useIndexerStatus(status));
  const state = connection === "paused" ? "paused" : stale ? "stale" : "live";
  const shown = SHOWN[state];
  return (
    <span
      data-testid="live-indicator"
      data-state={state}
      role="status"
      title={stale && state === "stale" ? `Not live: ${stale}` : shown.title}
      className="inline-flex items-center gap-1.5 whitespace-nowrap text-xs text-zinc-600 dark:text-zinc-400"
    >
      <span aria-hidden="true" className={`inline-block size-2 rounded-full ${shown.dot}`} />
      {shown.text}
    </span>
  );
}
