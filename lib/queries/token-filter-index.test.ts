import { describe, expect, it } from "vitest";
import { FILTER_COLUMNS, flagMask, matchesTokenFilter, type TokenFilter } from "@/lib/domain/token-filter";
import { RISK_FLAGS } from "@/lib/domain/vocab";
import { mulberry32 } from "@/lib/random";
import { carryFilterIndexes, filterIndexes, filterMatches, isSet } from "./token-filter-index";
import type { Snapshot } from "./token-list-index";

const NOW = new Date("2026-01-08T00:00:00Z");
const HOUR = 3_600_000;
const random = mulberry32(11);

/**
 * Column values as the list meets them: no value (NaN), zero and minus zero, one value held by
 * most tokens (so it is a cut of its own and a bound can fall right on it), few distinct values
 * (integer scores) and spread ones.
 */
const shapes: Record<string, () => number> = {
  spread: () => (random() - 0.3) * 1e6,
  heavy: () => (random() < 0.6 ? 0 : random() * 100),
  integers: () => Math.floor(random() * 101),
  gaps: () => (random() < 0.15 ? Number.NaN : random() < 0.1 ? -0 : Math.floor(random() * 8) * 1000),
};

function snapshotOf(n: number, shape: () => number): Snapshot {
  const columns = Object.fromEntries(
    FILTER_COLUMNS.map((c) => [
      c,
      Float64Array.from({ length: n }, () => (c === "createdAtMs" ? NOW.getTime() - random() * 168 * HOUR : shape())),
    ]),
  );
  return {
    version: 1,
    addresses: Array.from({ length: n }, (_, i) => `0x${i.toString(16).padStart(40, "0")}`),
    byAddress: Int32Array.from({ length: n }, (_, i) => i),
    lineage: {},
    columns,
    loading: {},
    flags: Int32Array.from({ length: n }, () => flagMask(RISK_FLAGS.filter(() => random() < 0.2))),
    order: new Map(),
    pass: new Uint8Array(n),
    readAt: { snapshot: "", table: 0 },
    rowsRead: n,
  };
}

/** A bound value: one the column holds (a bucket's edge or inside one), or any. */
function boundValue(s: Snapshot, column: (typeof FILTER_COLUMNS)[number]): number {
  const held = s.columns[column]![Math.floor(random() * s.addresses.length)];
  return Number.isNaN(held) || random() < 0.3 ? (random() - 0.3) * 1e6 : held;
}

function randomFilter(s: Snapshot): TokenFilter {
  const f: TokenFilter = {};
  if (random() < 0.5) f.min_liquidity_usd = boundValue(s, "liquidityUsd");
  if (random() < 0.4) f.min_market_cap_usd = boundValue(s, "marketCapUsd");
  if (random() < 0.4) f.max_market_cap_usd = boundValue(s, "marketCapUsd");
  if (random() < 0.4) f.max_risk_score = boundValue(s, "riskScore");
  if (random() < 0.4) f.min_holder_growth_1h_pct = boundValue(s, "holderGrowth1hPct");
  if (random() < 0.4) f.max_age_hours = random() * 200;
  if (random() < 0.4) f.exclude_flags = RISK_FLAGS.filter(() => random() < 0.4);
  return f;
}

/** `rounds` random filters on `s`: its matches are those matchesTokenFilter passes, by brute force. */
async function expectExact(s: Snapshot, rounds: number) {
  const n = s.addresses.length;
  const token = (p: number) => ({
    ...(Object.fromEntries(FILTER_COLUMNS.map((c) => [c, s.columns[c]![p]])) as Record<
      (typeof FILTER_COLUMNS)[number],
      number
    >),
    riskFlags: RISK_FLAGS.filter((_, f) => s.flags[p] & (1 << f)),
  });
  for (let round = 0; round < rounds; round++) {
    const filter = randomFilter(s);
    await filterIndexes(s, filter, NOW);
    const got = filterMatches(s, filter, NOW);
    const want = Array.from({ length: n }, (_, p) => p).filter((p) => matchesTokenFilter(token(p), filter, NOW));
    if (got === null) {
      expect(Object.keys(filter).filter((k) => k !== "exclude_flags" || filter.exclude_flags?.length)).toEqual([]);
      continue;
    }
    const passed = Array.from({ length: n }, (_, p) => p).filter((p) => isSet(got.bits, p));
    expect({ filter, passed, total: got.total }).toEqual({ filter, passed: want, total: want.length });
  }
}

/** A snapshot built from `s`: `written` of its tokens given new values and flags, `added` new tokens appended. */
function grown(s: Snapshot, written: number, added: number, shape: () => number): { s: Snapshot; moved: Int32Array } {
  const n = s.addresses.length + added;
  const moved = new Set<number>();
  while (moved.size < written) moved.add(Math.floor(random() * s.addresses.length));
  for (let p = s.addresses.length; p < n; p++) moved.add(p);
  const columns = Object.fromEntries(
    FILTER_COLUMNS.map((c) => {
      const values = new Float64Array(n);
      values.set(s.columns[c]!);
      for (const p of moved) values[p] = c === "createdAtMs" ? NOW.getTime() - random() * HOUR : shape();
      return [c, values];
    }),
  );
  const flags = new Int32Array(n);
  flags.set(s.flags);
  for (const p of moved) flags[p] = flagMask(RISK_FLAGS.filter(() => random() < 0.2));
  const addresses = [
    ...s.addresses,
    ...Array.from({ length: added }, (_, i) => `0x${(s.addresses.length + i).toString(16).padStart(40, "0")}`),
  ];
  return {
    s: { ...s, addresses, byAddress: Int32Array.from(addresses, (_, i) => i), columns, flags, pass: new Uint8Array(n) },
    moved: Int32Array.from(moved),
  };
}

/**
 * s's indexes carried to `next`, built from it, with filters served on s between the carry's steps:
 * they sort s's buckets and build its other indexes meanwhile, as requests on the last snapshot do.
 */
async function carriedWhileServed(s: Snapshot, next: { s: Snapshot; moved: Int32Array }) {
  let done = false;
  const carrying = carryFilterIndexes(s, next.s, next.moved).finally(() => {
    done = true;
  });
  let between = 0;
  for (; !done; between++) {
    // Many at a time: a bucket of s sorted just as its carry reads it is what must not leak into next.
    for (let i = 0; i < 20; i++) {
      const filter = randomFilter(s);
      await filterIndexes(s, filter, NOW);
      filterMatches(s, filter, NOW);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await carrying;
  // The carry gave way: before each index and twice within its carry.
  expect(between).toBeGreaterThan(2);
}

describe("filterMatches", () => {
  const cases = [1, 31, 32, 33, 200, 5_000, 12_000].flatMap((n) =>
    Object.keys(shapes).map((shape): [number, string] => [n, shape]),
  );

  it.each(cases)("%i tokens, %s values: exactly the tokens matchesTokenFilter passes", async (n, shape) => {
    await expectExact(snapshotOf(n, shapes[shape]), 30);
  });

  // Each snapshot built from the last: a few tokens written (into other buckets, flags changed), new ones
  // appended (the newest created), past 32-position words; far enough that the drift builds an index anew.
  it.each([
    [40, "gaps"],
    [5_000, "spread"],
    [5_000, "heavy"],
    [12_000, "integers"],
  ] as const)("%i tokens, %s values, carried to the next snapshots while the last serves: the same exact matches", async (n, shape) => {
    let s = snapshotOf(n, shapes[shape]);
    await expectExact(s, 10);
    for (let round = 0; round < 12; round++) {
      const next = grown(s, Math.ceil(s.addresses.length / 200), 1 + (round % 3) * 17, shapes[shape]);
      await carriedWhileServed(s, next);
      s = next.s;
      await expectExact(s, 10);
    }
  });

  it("gives null for an empty filter (every token passes)", () => {
    expect(filterMatches(snapshotOf(100, shapes.spread), { exclude_flags: [] }, NOW)).toBeNull();
  });
});
