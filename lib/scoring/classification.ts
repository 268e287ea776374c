/**
 * The behavioural class of a wallet: the first rule of an ordered list that matches. The order
 * puts what explains the wallet's trading before how well it trades (docs/methodology.md):
 *   insider     a link to a token creator is the most material fact about any other label;
 *   wash_trader its volume is fake, so its trade rate and results mean nothing;
 *   bot         machine-speed trading: its results are a program's, not a trader's;
 *   sniper      buys in the first blocks of launches (often a bot too slow for the bot rule);
 *   smart_money a confident, profitable record;
 *   whale       size without a notable record;
 *   fresh       too new and too little activity to say more;
 *   retail      everyone else.
 */

import type { Classification, Confidence } from "@/lib/domain/vocab";
import { groupBy } from "./entities";
import { sum } from "./ramp";
import type { WalletReputationInput, WalletTrade } from "./wallet-input";
import { isWashTrader, roundTripStats } from "./wash";
import { CLASSIFICATION_RULE, ENTRY_TIMING } from "./weights";

export type ClassificationFacts = WalletReputationInput & { reputationScore: number; confidence: Confidence };

/** Most trades in any 60-second span. */
export function peakTradesPerMinute(trades: WalletTrade[]): number {
  const times = trades.map((t) => t.timestamp).sort((a, b) => a - b);
  let peak = 0;
  for (let start = 0, end = 0; end < times.length; end++) {
    while (times[end] - times[start] >= 60) start++;
    peak = Math.max(peak, end - start + 1);
  }
  return peak;
}

const largestBuyUsd = (trades: WalletTrade[]) =>
  Math.max(0, ...trades.filter((t) => t.direction === "buy").map((t) => t.amountUsd));

/** Tokens in which the wallet's own trading is wash trading (judged per token, as for a token's traders). */
function washTradedTokens(trades: WalletTrade[]): string[] {
  return [...groupBy(trades, (t) => t.token)]
    .filter(([, list]) => isWashTrader(roundTripStats(list)))
    .map(([token]) => token);
}

function sniperShare(f: ClassificationFacts): { sniped: number; share: number } {
  const bought = f.positions.filter((p) => p.blocksAfterLaunch !== null);
  const sniped = bought.filter((p) => (p.blocksAfterLaunch ?? Infinity) <= ENTRY_TIMING.sniperMaxBlocks).length;
  return { sniped, share: bought.length ? sniped / bought.length : 0 };
}

const R = CLASSIFICATION_RULE;

/** The ordered rule list; the first match is the class. */
export const CLASSIFICATION_RULES: [Classification, (f: ClassificationFacts) => boolean][] = [
  ["insider", (f) => f.linkedToCreator],
  ["wash_trader", (f) => f.inWashEvidence || washTradedTokens(f.trades).length > 0],
  ["bot", (f) => peakTradesPerMinute(f.trades) >= R.botTradesPerMinute],
  [
    "sniper",
    (f) => {
      const { sniped, share } = sniperShare(f);
      return sniped > 0 && share >= R.sniperShareOfPositions;
    },
  ],
  [
    "smart_money",
    (f) =>
      f.reputationScore >= R.smartMoneyMinReputation &&
      f.confidence !== "low" &&
      sum(f.positions.map((p) => p.realizedPnlUsd)) > 0,
  ],
  ["whale", (f) => f.portfolioValueUsd >= R.whaleMinPortfolioUsd || largestBuyUsd(f.trades) >= R.whaleMinBuyUsd],
  ["fresh", (f) => f.now - f.firstSeen < R.freshMaxAgeHours * 3_600 && f.tradeCount < R.freshMaxTrades],
  ["retail", () => true],
];

export function classifyWallet(facts: ClassificationFacts): Classification {
  return CLASSIFICATION_RULES.find(([, matches]) => matches(facts))?.[0] ?? "retail";
}
