import type { LiveMessage } from "@/lib/api/stream/live";

/**
 * What a live view moves with: the market (any new data: lists, the events), the indexer's
 * status (which also moves without new data, so every message and ping refreshes it), or one
 * token or wallet (only the moves that name it).
 */
export type LiveScope = "market" | "status" | { token: string } | { wallet: string };

/**
 * A view of one token or wallet not refreshed for this long refreshes on the next move anyway:
 * the worker's full refresh (every 30 s) moves figures that time moves (a window's change, an
 * age) of tokens no block named.
 */
export const SCOPED_MAX_AGE_MS = 30_000;

/** Whether a view of `scope`, last refreshed at `refreshedAt`, is to be refreshed for message `m` received at `now`. */
export function movedBy(scope: LiveScope, m: LiveMessage, refreshedAt: number, now: number): boolean {
  if (scope === "market" || scope === "status") return true;
  if (now - refreshedAt >= SCOPED_MAX_AGE_MS) return true;
  if ("token" in scope) return m.tokens === null || m.tokens.includes(scope.token);
  return m.wallets === null || m.wallets.includes(scope.wallet);
}
