/**
 * Where a simulated history sits in time. Tests, evals and benchmarks place it at a fixed instant,
 * so a seed is a result at whatever hour it runs: every derivation reads "now" from the chain's
 * head, and the placement is the only way the process clock could reach one.
 */

/** The first simulated block of a pinned history: a Monday, 12:00 UTC. */
export const PINNED_HISTORY_START = Date.UTC(2026, 0, 5, 12, 0, 0) / 1000;

/** The genesis block precedes the history by this much; the deployment is mined in between. */
export const DEPLOY_SECONDS = 3_600;

/** The history's first block at `start` (Unix seconds, or an ISO time in UTC). */
export function historyAt(start: number | string = PINNED_HISTORY_START): {
  genesisTimestamp: number;
  startTimestamp: number;
} {
  const startTimestamp = typeof start === "number" ? start : Date.parse(start) / 1000;
  if (!Number.isInteger(startTimestamp)) throw new Error(`history start ${start} is not a whole second`);
  return { genesisTimestamp: startTimestamp - DEPLOY_SECONDS, startTimestamp };
}
