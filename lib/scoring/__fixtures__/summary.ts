/** A summary input with two flags raised, for the summary and LLM tests. */
import type { SummaryInput } from "../summary";

export const summaryInput = (): SummaryInput => ({
  name: "Froggy Agent",
  symbol: "FRAG",
  sector: "ai",
  launchpad: "MemePad",
  createdAt: Date.UTC(2026, 10, 3, 14, 5) / 1000,
  marketCapUsd: 1_234_567,
  volume24hUsd: 45_678,
  liquidityUsd: 123_456,
  holderCount: 1_342,
  holderGrowth1hPct: 12.5,
  riskScore: 68.4,
  riskLevel: "high",
  dimensions: {
    holder_concentration_score: 71.2,
    liquidity_stability_score: 22.1,
    wash_trade_score: 64.3,
    smart_money_flow_score: null,
  },
  weightedScore: 51.2,
  adjustments: [],
  flagEvidence: [
    {
      flag: "wash_trading",
      wallets: ["0x00000000000000000000000000000000000000a1"],
      tx_hashes: ["0x01"],
      wallet_count: 1,
      tx_count: 1,
      funder: null,
      metrics: { wash_share: 0.413, wash_volume_usd: 18_865, round_trips: 14, matched_share: 0.93, wash_entities: 2 },
      thresholds: { wash_share: 0.25, round_trips: 3, matched_share: 0.5 },
      tripped: ["wash_share"],
    },
    {
      flag: "concentrated_ownership",
      wallets: ["0x00000000000000000000000000000000000000b1"],
      tx_hashes: [],
      wallet_count: 1,
      tx_count: 0,
      funder: null,
      metrics: { top1_share: 0.18, top10_share: 0.62, hhi: 0.06, owners: 1_200 },
      thresholds: { top10_share: 0.5, top1_share: 0.15 },
      tripped: ["top1_share", "top10_share"],
    },
  ],
});
