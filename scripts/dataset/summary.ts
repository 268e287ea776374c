import { createHash } from "node:crypto";
import type { RiskFlag, TokenRisk } from "./token-risk";

/** Everything the summary says but the holders' reputation, which is known only at the end. */
export type SummaryInput = {
  name: string;
  symbol: string;
  sector: string;
  launchpad: string;
  createdAt: string;
  priceUsd: number;
  marketCapUsd: number;
  liquidityUsd: number;
  volume24hUsd: number;
  holderCount: number;
  holderGrowth1hPct: number;
  risk: TokenRisk;
  earlyMoverCount: number;
  earlyMoverNetActivity: string;
};

const usd = (x: number) =>
  x >= 1e9 ? `$${(x / 1e9).toFixed(2)}B` : x >= 1e6 ? `$${(x / 1e6).toFixed(2)}M` : x >= 1e3 ? `$${(x / 1e3).toFixed(1)}K` : `$${x.toFixed(2)}`;
const price = (x: number) => (x >= 0.01 ? `$${x.toFixed(4)}` : `$${x.toPrecision(3)}`);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const SECTOR_PHRASE: Record<string, string> = { meme: "a meme token", ai: "an AI token", defi: "a DeFi token", gaming: "a gaming token", other: "a token" };

function flagSentence(flag: RiskFlag, s: SummaryInput): string {
  const m = s.risk.evidence.find((e) => e.flag === flag)?.metrics ?? {};
  switch (flag) {
    case "liquidity_pulled":
      return `one transaction removed ${pct(m.removed_share ?? 0)} of the pool's liquidity`;
    case "wash_trading":
      return `${pct(m.wash_share ?? 0)} of the volume is matched round trips (${m.round_trips ?? 0} by one entity)`;
    case "concentrated_ownership":
      return `the largest holder owns ${pct(m.top1_share ?? 0)} and the top 10 own ${pct(m.top10_share ?? 0)}`;
    case "sybil_cluster":
      return `${count(m.wallets ?? 0, "wallet", "wallets")} funded by one address bought at launch and hold ${pct(m.supply_share ?? 0)}`;
    case "smart_money_exiting":
      return `${count(m.exiting_wallets ?? 0, "smart-money wallet", "smart-money wallets")} sold most of their position in the last 24 hours`;
  }
}

/** The summary up to the top holders' reputation, written as soon as the token is simulated. */
export function tokenSummary(s: SummaryInput): string {
  const growth = `${s.holderGrowth1hPct >= 0 ? "+" : ""}${s.holderGrowth1hPct.toFixed(1)}%`;
  const flags = s.risk.flags.length ? `: ${s.risk.flags.map((f) => flagSentence(f, s)).join("; ")}.` : ", with no risk flag raised.";
  const early = s.earlyMoverCount ? `Early buyers (${s.earlyMoverCount}): ${s.earlyMoverNetActivity}.` : "No wallet bought in the launch window.";
  return (
    `${s.name} (${s.symbol}) is ${SECTOR_PHRASE[s.sector]} launched on ${s.launchpad} at ${s.createdAt.slice(0, 16).replace("T", " ")} UTC. ` +
    `It trades at ${price(s.priceUsd)} for a ${usd(s.marketCapUsd)} market cap, with ${usd(s.liquidityUsd)} of liquidity ` +
    `and ${usd(s.volume24hUsd)} traded in 24 hours. ${count(s.holderCount, "holder", "holders")} (${growth} in the last hour); ` +
    `the top 10 hold ${pct(s.risk.top10Share)} of supply. Risk is ${s.risk.riskLevel} at ${s.risk.riskScore.toFixed(1)}/100${flags} ` +
    `${early}`
  );
}

export const withReputation = (summary: string, avgReputationTop10: number) =>
  `${summary} The top holders' average reputation is ${avgReputationTop10.toFixed(1)}.`;

/**
 * summary_input_hash: the summary states every input it is made from (at the precision it
 * shows), so hashing the text changes exactly when a rewrite would.
 */
export const summaryHash = (summary: string) => createHash("sha256").update(summary).digest("hex").slice(0, 32);
