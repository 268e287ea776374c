"use client";

import { useLiveState } from "./live-provider";

/** "Live" while the tab follows the market as blocks are indexed; "Paused" while hidden or disconnected. */
export function LiveIndicator() {
  const state = useLiveState();
  const live = state === "live";
  return (
    <span
      data-testid="live-indicator"
      data-state={state}
      role="status"
      title={
        live
          ? "Figures update as blocks are indexed"
          : "Updates paused (tab hidden or connection lost); they catch up on return"
      }
      className="inline-flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400"
    >
      <span
        aria-hidden="true"
        className={`inline-block size-2 rounded-full ${live ? "bg-emerald-500" : "bg-zinc-400"}`}
      />
      {live ? "Live" : "Paused"}
    </span>
  );
}
