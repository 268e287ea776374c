import { describe, expect, it } from "vitest";
import { type FilterableToken, matchesTokenFilter, type TokenFilter } from "@/lib/domain/token-filter";
import { RISK_FLAGS } from "@/lib/domain/vocab";
import { mulberry32 } from "@/lib/random";
import { TokenIndex } from "./token-index";

const NOW = new Date("2030-01-01T00:00:00Z");
const HOUR = 3_600_000;
// Few distinct values, so thresholds often land exactly on a token's value.
const LEVELS = [0, 10, 100, 1_000, 10_000, 100_000];

function randomTokens(random: () => number, n: number): FilterableToken[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  return Array.from({ length: n }, () => ({
    liquidityUsd: random() < 0.02 ? NaN : pick(LEVELS),
    marketCapUsd: pick(LEVELS) * 3,
    riskScore: Math.round(random() * 100),
    holderGrowth1hPct: random() < 0.5 ? 0 : Math.round(random() * 200 - 50),
    // Ages on whole hours plus or minus a millisecond: the boundaries of max_age_hours.
    createdAtMs: NOW.getTime() - Math.floor(random() * 48) * HOUR + Math.floor(random() * 3) - 1,
    riskFlags: RISK_FLAGS.filter(() => random() < 0.15),
  }));
}

function randomFilter(random: () => number): TokenFilter {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const f: TokenFilter = {};
  if (random() < 0.5) f.min_liquidity_usd = pick(LEVELS);
  if (random() < 0.3) f.max_market_cap_usd = pick(LEVELS) * 3;
  if (random() < 0.3) f.min_market_cap_usd = pick(LEVELS);
  if (random() < 0.4) f.max_risk_score = Math.round(random() * 100);
  if (random() < 0.3) f.min_holder_growth_1h_pct = Math.round(random() * 100 - 20);
  if (random() < 0.1) f.max_risk_score = -0;
  if (random() < 0.4) f.max_age_hours = pick([0, 0.5, 1, 6, 24, 47.99]);
  if (random() < 0.3) f.exclude_flags = RISK_FLAGS.filter(() => random() < 0.3);
  return f;
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

describe("TokenIndex", () => {
  // Few tokens: most filters AND bitsets; many: most walk their narrowest bound.
  it.each([
    [2_000, 600],
    [20_000, 100],
  ])("matches exactly the tokens matchesTokenFilter accepts, for any filter (%i tokens)", (n, count) => {
    const random = mulberry32(n);
    const tokens = randomTokens(random, n);
    const filters = Array.from({ length: count }, () => randomFilter(random));
    // Half the filters are prepared together, the others' bounds are built when asked.
    const index = new TokenIndex(tokens, NOW, filters.slice(0, count / 2));
    for (const filter of filters) {
      const expected = tokens.flatMap((t, i) => (matchesTokenFilter(t, filter, NOW) ? [i] : []));
      expect(sorted(index.matching(filter)), JSON.stringify(filter)).toEqual(expected);
    }
  });

  it("handles token counts that are not a multiple of the bitset word", () => {
    const tokens = randomTokens(mulberry32(1), 33);
    const index = new TokenIndex(tokens, NOW);
    const filter = { min_liquidity_usd: 0, max_risk_score: 100 };
    expect(sorted(index.matching(filter))).toEqual(
      tokens.flatMap((t, i) => (matchesTokenFilter(t, filter, NOW) ? [i] : [])),
    );
    expect(new TokenIndex([], NOW).matching(filter)).toEqual([]);
  });
});
