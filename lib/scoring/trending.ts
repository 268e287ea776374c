/** How far holder growth can lift a token's trending score: growth above +500 % counts as +500 %. */
export const TRENDING_GROWTH_CAP_PCT = 500;

export type TrendingInput = { volume24hUsd: number; holderGrowth1hPct: number; riskScore: number };

/**
 * The ranking of sort=trending: 24 h volume, log-damped so one whale day does not bury every
 * other token, lifted by holder growth over the past hour (shrinking counts as none, the cap as
 * above), and scaled down by risk, so a risk 100 token never trends.
 */
export function trendingScore(t: TrendingInput): number {
  const growth = Math.min(Math.max(t.holderGrowth1hPct, 0), TRENDING_GROWTH_CAP_PCT);
  return Math.log1p(t.volume24hUsd) * (1 + growth / 100) * (1 - t.riskScore / 100);
}
