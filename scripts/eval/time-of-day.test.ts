/**
 * A seed is a result at any hour: the same simulated history, placed at different times of day and
 * across a month end, goes through the simulator, the indexer and the worker's derivations and
 * comes out with the same scores, flags, evidence, classes and windowed figures. Every window is
 * taken from the chain's head, so only a derivation that read the process clock, or bucketed time
 * by calendar hours or days, could tell the placements apart.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { runSeed, type Scored } from "./run-seed";

const SEED = 3;
const SIZE = { days: 1.25, tokens: 12, wallets: 90 };
/** Where the history's first block falls; each ends 30 hours later. */
const PLACEMENTS = [
  "2026-03-02T00:05:00Z",
  "2026-03-02T06:00:00Z",
  "2026-03-02T12:00:00Z",
  "2026-03-02T23:55:00Z",
  // From the last evening of January into February.
  "2026-01-31T17:59:58Z",
];

/** What the product concludes, without what names the time itself (tx hashes carry deadlines). */
function conclusions(scored: Scored) {
  return {
    tokens: scored.tokens.map(({ evidence, ...t }) => ({
      ...t,
      evidence: evidence.map(({ tx_hashes, ...e }) => ({ ...e, txs: tx_hashes.length })),
    })),
    wallets: Object.fromEntries(scored.wallets),
    reputations: Object.fromEntries(scored.reputations),
  };
}

describe(`seed ${SEED} placed at different times`, { timeout: 60_000 }, () => {
  const results: ReturnType<typeof conclusions>[] = [];

  beforeAll(async () => {
    for (const start of PLACEMENTS)
      results.push(conclusions((await runSeed(SEED, SIZE, () => {}, { snapshots: [1], start })).scored));
  }, 600_000);

  it("scores something worth comparing", () => {
    const [first] = results;
    expect(first.tokens.length).toBeGreaterThanOrEqual(SIZE.tokens);
    expect(first.tokens.some((t) => t.flags.length > 0)).toBe(true);
    expect(first.tokens.some((t) => t.metrics.volume24hUsd > 0 && t.metrics.holderCount > 0)).toBe(true);
    expect(new Set(Object.values(first.wallets)).size).toBeGreaterThan(2);
  });

  it.each(
    PLACEMENTS.slice(1).map((start, i) => [start, i + 1] as const),
  )(`placed at %s gives what it gives at ${PLACEMENTS[0]}`, (_, i) => {
    expect(results[i]).toEqual(results[0]);
  });
});
