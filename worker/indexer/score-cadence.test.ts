import { describe, expect, it } from "vitest";
import { BUSY_SCORING_ROWS, ScoreCadence } from "./score-cadence";

const BUSY = "0xbusy";
const LIGHT = "0xlight";
const rows = new Map([
  [BUSY, BUSY_SCORING_ROWS],
  [LIGHT, BUSY_SCORING_ROWS - 1],
]);
const indexed = () => true;

/** A cadence whose tokens were all scored at 0, as a refresh after a backfill does. */
function scoredAtZero(fullRefreshIntervalMs = 30_000) {
  const c = new ScoreCadence(fullRefreshIntervalMs);
  c.committed(0, rows);
  return c;
}

describe("ScoreCadence", () => {
  it.each([
    { at: 9_999, unscored: [BUSY] },
    { at: 10_000, unscored: [] },
  ])("a live refresh at $at ms leaves $unscored unscored", ({ at, unscored }) => {
    expect(scoredAtZero().liveUnscored([BUSY, LIGHT], at)).toEqual(unscored);
  });

  it("owes a busy token a live refresh left unscored, until its interval has passed", () => {
    const c = scoredAtZero();
    c.committed(5_000, new Map([[LIGHT, 1]]), [BUSY]);
    expect(c.due(9_999, indexed)).toEqual({ tokens: [], since: 9_999 });
    expect(c.due(10_000, indexed)).toEqual({ tokens: [BUSY], since: 5_000 });
    // Owed from the first refresh that left it, not the last.
    c.committed(7_000, new Map(), [BUSY]);
    expect(c.due(10_000, indexed).since).toBe(5_000);
    c.committed(10_000, new Map([[BUSY, 1]]));
    expect(c.due(20_000, indexed).tokens).toEqual([]);
  });

  it("forgets what is owed by a token no longer indexed", () => {
    const c = scoredAtZero();
    c.committed(1_000, new Map(), [BUSY]);
    expect(c.due(20_000, () => false).tokens).toEqual([]);
    expect(c.due(20_000, indexed).tokens).toEqual([]);
  });

  it.each([
    { at: 299_999, owed: false, unscored: [BUSY, LIGHT] },
    { at: 300_000, owed: false, unscored: [] },
    { at: 9_999, owed: true, unscored: [BUSY, LIGHT] },
    { at: 10_000, owed: true, unscored: [LIGHT] },
  ])("a periodic full refresh at $at ms (busy token owed: $owed) leaves $unscored unscored", ({
    at,
    owed,
    unscored,
  }) => {
    // At the default full refresh interval: 30 s must not shorten the 5 minutes.
    const c = scoredAtZero();
    if (owed) c.committed(0, new Map(), [BUSY]);
    expect(c.periodicUnscored([BUSY, LIGHT], at)).toEqual(unscored);
  });

  it.each([
    { at: 299_999, unscored: true },
    { at: 300_000, unscored: false },
  ])("a periodic full refresh at $at ms leaves the wallets unscored: $unscored", ({ at, unscored }) => {
    const c = new ScoreCadence(30_000);
    expect(c.periodicWalletsUnscored(0), "never scored").toBe(false);
    c.walletsScored(0);
    expect(c.periodicWalletsUnscored(at)).toBe(unscored);
  });

  it("scores a token it never scored, and everything when the full refresh interval is 0", () => {
    expect(new ScoreCadence(30_000).liveUnscored([BUSY], 0)).toEqual([]);
    expect(new ScoreCadence(30_000).periodicUnscored([BUSY], 0)).toEqual([]);
    const every = scoredAtZero(0);
    expect(every.liveUnscored([BUSY, LIGHT], 0)).toEqual([]);
    expect(every.periodicUnscored([BUSY, LIGHT], 0)).toEqual([]);
    every.walletsScored(0);
    expect(every.periodicWalletsUnscored(0)).toBe(false);
  });
});
