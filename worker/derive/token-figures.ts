import { holderGrowthPct } from "@/lib/scoring/holder-growth";
import { usd } from "./prices";

/** What the database holds of a token for its list figures (metrics.ts reads it, one row per token). */
export type StoredTokenFacts = {
  /** The supply in units (supply / 10^decimals): all of it, and what burn addresses do not hold. */
  totalUnits: number;
  circulatingUnits: number;
  /** The price each change window starts from (metrics.ts: the last before the window, else the first in it). */
  startPrice: { "5m": number | null; "1h": number | null; "24h": number | null };
  /** Real holders now and at the start of the past hour. */
  holdersNow: number;
  holdersHourAgo: number;
};

/** A token's figures of the list read model (token_metrics) made from its price and its stored facts. */
export type TokenFigures = {
  marketCapUsd: number;
  fdvUsd: number;
  priceChange5mPct: number | null;
  priceChange1hPct: number | null;
  priceChange24hPct: number | null;
  holderCount: number;
  holderGrowth1hPct: number;
};

/**
 * Market cap = price x circulating supply (docs/methodology.md: supply held at burn addresses is
 * not circulating), FDV = price x total supply, both 0 for a token without a price (no pool holds
 * the minimum quote liquidity). A change is the percent from the window's start price to the price
 * now, null without both prices. Every USD figure and percent is held to ±MAX_USD (prices.ts).
 */
export function tokenFigures(priceUsd: number, facts: StoredTokenFacts): TokenFigures {
  const change = (start: number | null) =>
    start !== null && start > 0 && priceUsd > 0 ? usd((priceUsd / start - 1) * 100) : null;
  return {
    marketCapUsd: usd(priceUsd * facts.circulatingUnits),
    fdvUsd: usd(priceUsd * facts.totalUnits),
    priceChange5mPct: change(facts.startPrice["5m"]),
    priceChange1hPct: change(facts.startPrice["1h"]),
    priceChange24hPct: change(facts.startPrice["24h"]),
    holderCount: facts.holdersNow,
    holderGrowth1hPct: holderGrowthPct(facts.holdersNow, facts.holdersHourAgo),
  };
}
