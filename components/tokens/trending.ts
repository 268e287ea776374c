/** What "trending" means, in words (worker/derive/metrics.ts ranks it; the API reference defines it too). */
export const TRENDING =
  "Trending ranks tokens by 24 h volume (log-damped), boosted by holder growth over the past hour (up to +500 %), " +
  "and scaled down by risk score.";
