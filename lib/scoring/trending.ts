import type { RiskFlag } from "@/lib/domain/vocab";

/** How far holder growth can lift a token's trending score: growth above +500 % counts as +500 %. */
export const TRENDING_GROWTH_CAP_PCT = 500;

export type TrendingInput = {
  volume24hUsd: number;
  holderGrowth1hPct: number;
  riskScore: number;
  priceUsd: number;
  flags: RiskFlag[];
};

/**
 * Whether a token can trend at all: only while it can be bought at a price. A token whose pools
 * hold less than the minimum liquidity has no price (0), and one whose liquidity was pulled has no
 * exit left, whatever its recent volume and holder growth (often the rush for the door).
 */
export const canTrend = (t: Pick<TrendingInput, "priceUsd" | "flags">) =>
  t.priceUsd > 0 && !t.flags.includes("liquidity_pulled");

/**
 * The ranking of sort=trending: 24 h volume, log-damped so one whale day does not bury every
 * other token, lifted by holder growth over the past hour (shrinking counts as none, the cap as
 * above), and scaled down by risk, so a risk 100 token never trends; 0 for a token that cannot
 * trend (canTrend).
 */
export function trendingScore(t: TrendingInput): number {
  if (!canTrend(t)) return 0;
  const growth = Math.min(Math.max(t.holderGrowth1hPct, 0), TRENDING_GROWTH_CAP_PCT);
  return Math.log1p(t.volume24hUsd) * (1 + growth / 100) * (1 - t.riskScore / 100);
}
