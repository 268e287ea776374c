import { describe, expect, it } from "vitest";
import { matchesTokenFilter, type TokenFilter } from "@/lib/domain/token-filter";
import { RISK_FLAGS } from "@/lib/domain/vocab";
import { mulberry32 } from "@/lib/random";
import { hashAddresses, matchDigest } from "./digest";
import { MatchMemory } from "./memory";
import type { CycleToken } from "./tokens";

const HOUR = 3_600_000;
const random = mulberry32(42);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
let serial = 0;

function newToken(now: number): CycleToken {
  return {
    address: `0x${(++serial).toString(16).padStart(40, "0")}`,
    liquidityUsd: pick([0, 100, 1_000, 10_000, 100_000]) * (0.5 + random()),
    marketCapUsd: pick([1_000, 100_000, 1_000_000]) * (0.5 + random()),
    riskScore: Math.round(random() * 100),
    holderGrowth1hPct: random() < 0.5 ? 0 : Math.round(random() * 100 - 20),
    createdAtMs: now - Math.floor(random() * 48 * HOUR),
    riskFlags: RISK_FLAGS.filter(() => random() < 0.1),
    priceUsd: 1,
    priceChange5mPct: null,
    priceChange1hPct: null,
    priceChange24hPct: null,
  };
}

function newFilter(): TokenFilter {
  const f: TokenFilter = {};
  if (random() < 0.6) f.min_liquidity_usd = pick([500, 5_000, 50_000]);
  if (random() < 0.3) f.max_market_cap_usd = pick([200_000, 2_000_000]);
  if (random() < 0.4) f.max_risk_score = pick([30, 60]);
  if (random() < 0.2) f.min_holder_growth_1h_pct = pick([0, 20]);
  if (random() < 0.5) f.max_age_hours = pick([1, 6, 24]);
  if (random() < 0.2) f.exclude_flags = [pick(RISK_FLAGS)];
  return f;
}

/** A token as the next cycle loads it: a fresh object, sometimes with new values. */
function reload(t: CycleToken): CycleToken {
  const copy = { ...t, riskFlags: [...t.riskFlags] };
  if (random() < 0.1) copy.liquidityUsd *= 0.5 + random();
  if (random() < 0.05) copy.riskScore = Math.round(random() * 100);
  if (random() < 0.03) copy.riskFlags = RISK_FLAGS.filter(() => random() < 0.2);
  return copy;
}

describe("MatchMemory", () => {
  it("carries sets across cycles exactly as computing them afresh, and diffs them", () => {
    let now = Date.UTC(2031, 0, 1);
    let tokens = Array.from({ length: 1_500 }, () => newToken(now));
    const conditions = new Map(Array.from({ length: 40 }, (_, i) => [`c${i}`, newFilter()]));
    let nextKey = 40;
    const memory = new MatchMemory();
    let lastDigests = new Map<string, string | null>();
    let lastSets = new Map<string, Set<string>>();

    for (let cycle = 0; cycle < 30; cycle++) {
      // Time moves on by up to an hour, or (rarely) back; tokens change, appear and go.
      now += random() < 0.1 ? -HOUR : Math.floor(random() * HOUR);
      tokens = tokens.filter(() => random() > 0.01).map(reload);
      tokens.push(...Array.from({ length: 20 }, () => newToken(now)));
      tokens.sort(() => random() - 0.5);
      if (random() < 0.3) {
        conditions.delete([...conditions.keys()][0]);
        conditions.set(`c${nextKey++}`, newFilter());
      }

      const at = new Date(now);
      const result = memory.match(tokens, at, conditions);
      const hashes = hashAddresses(tokens.map((t) => t.address));
      const digests = new Map<string, string | null>();
      for (const [key, filter] of conditions) {
        const positions = result.sets.get(key)!;
        const expected = tokens.flatMap((t, i) => (matchesTokenFilter(t, filter, at) ? [i] : []));
        expect(
          [...positions].sort((a, b) => a - b),
          `cycle ${cycle} ${key} ${JSON.stringify(filter)}`,
        ).toEqual(expected);
        digests.set(key, matchDigest(hashes, positions));

        const before = lastSets.get(key);
        const diff = result.diff(lastDigests.get(key) ?? null, positions);
        if (before && lastDigests.has(key)) {
          const after = new Set(positions.map((p) => tokens[p].address));
          expect(diff, `diff of ${key}`).toBeDefined();
          expect(diff!.inserts.sort()).toEqual([...after].filter((a) => !before.has(a)).sort());
          expect(diff!.deletes.sort()).toEqual([...before].filter((a) => !after.has(a)).sort());
        }
      }
      memory.remember(result, digests);
      lastDigests = digests;
      lastSets = new Map(
        [...conditions.keys()].map((k) => [k, new Set(result.sets.get(k)!.map((p) => tokens[p].address))]),
      );
    }
  }, 60_000);
});
