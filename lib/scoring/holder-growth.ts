/**
 * Holder growth over a window, in percent: the change in real holders against the count at the
 * window's start. A token that had none then (younger than the window) grows from nothing,
 * counted against one holder, so its growth is its holder count × 100 rather than infinite.
 */
export function holderGrowthPct(holdersNow: number, holdersBefore: number): number {
  return ((holdersNow - holdersBefore) * 100) / Math.max(holdersBefore, 1);
}
