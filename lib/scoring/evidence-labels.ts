/**
 * What each metric of flag evidence means, in words: its label, its unit and the condition its
 * threshold sets. The one table the dashboard's evidence lists and the API reference (the
 * FlagEvidence schema's description) both read; every metric a flag records is in it.
 */

import type { RiskFlag } from "@/lib/domain/vocab";
import type { FlagEvidence } from "./evidence";
import { formatCount, formatIndex, formatShare, formatShareExact, formatUsd } from "./format";

/** share: a fraction shown as a percent; index: 0..1 shown as a decimal. */
export type MetricUnit = "share" | "usd" | "count" | "index";

export type MetricLabel = {
  label: string;
  unit: MetricUnit;
  /** The condition the metric has to meet, from the evidence's thresholds; none for context. */
  condition?: (t: Record<string, number>) => string;
};

const UNIT_WORDS: Record<MetricUnit, string> = {
  share: "percent",
  usd: "US dollars",
  count: "count",
  index: "index from 0 to 1",
};

export const EVIDENCE_METRICS: Record<RiskFlag, Record<string, MetricLabel>> = {
  wash_trading: {
    wash_share: {
      label: "Share of the last 7 days' volume in round trips",
      unit: "share",
      condition: (t) => `flagged at ${formatShare(t.wash_share)} or more`,
    },
    wash_volume_usd: { label: "Round-trip volume, last 7 days", unit: "usd" },
    round_trips: {
      label: "Round trips of the largest wash trader",
      unit: "count",
      condition: (t) => `a wash trader makes ${formatCount(t.round_trips)} or more`,
    },
    matched_share: {
      label: "Share of the largest wash trader's volume in round trips",
      unit: "share",
      condition: (t) => `a wash trader has ${formatShare(t.matched_share)} or more`,
    },
    wash_entities: { label: "Wash traders (a wallet, or wallets of one funder)", unit: "count" },
  },
  liquidity_pulled: {
    provider_removed_share: {
      label: "Share of the pool one provider removed",
      unit: "share",
      condition: (t) => `flagged at ${formatShare(t.provider_removed_share)} or more`,
    },
    largest_removal_share: { label: "Largest single removal, share of the pool", unit: "share" },
    fast_drawdown: {
      label: "Largest fall of liquidity within 24 hours",
      unit: "share",
      condition: (t) => `or flagged at ${formatShare(t.fast_drawdown)} or more, with the two below`,
    },
    drawdown: {
      label: "Liquidity below its peak now",
      unit: "share",
      condition: (t) => `after such a fall, still ${formatShare(t.fast_drawdown)} or more`,
    },
    provider_sell_share: {
      label: "Share of the selling in the fall done by the pool's own providers",
      unit: "share",
      condition: (t) => `after such a fall, ${formatShare(t.provider_sell_share)} or more`,
    },
  },
  concentrated_ownership: {
    top1_share: {
      label: "Largest owner's share of circulating supply",
      unit: "share",
      condition: (t) => `flagged at ${formatShare(t.top1_share)} or more`,
    },
    top10_share: {
      label: "Ten largest owners' share of circulating supply",
      unit: "share",
      condition: (t) => `or flagged at ${formatShare(t.top10_share)} or more`,
    },
    hhi: { label: "Herfindahl index: sum of squared owner shares (1 = one owner)", unit: "index" },
    owners: { label: "Owners (a funder's wallets counted as one)", unit: "count" },
  },
  sybil_cluster: {
    wallets: { label: "Wallets in the group", unit: "count" },
    same_block_wallets: {
      label: "Wallets of one funder buying in the same launch block",
      unit: "count",
      condition: (t) => `flagged at ${formatCount(t.same_block_wallets)} or more`,
    },
    cluster_wallets: {
      label: "Wallets of one funder buying the token",
      unit: "count",
      condition: (t) => `flagged at ${formatCount(t.cluster_wallets)} or more`,
    },
    supply_share: {
      label: "Supply the group holds, or bought at launch",
      unit: "share",
      condition: (t) => `and ${formatShare(t.supply_share)} or more`,
    },
  },
  smart_money_exiting: {
    exiting_wallets: {
      label: "Smart-money wallets that sold half or more of their peak balance",
      unit: "count",
      condition: (t) => `flagged at ${formatCount(t.exiting_wallets)} or more`,
    },
    exit_share: {
      label: "Share of the token's smart money that is exiting",
      unit: "share",
      condition: (t) => `and ${formatShare(t.exit_share)} or more`,
    },
    net_flow_usd: {
      label: "Smart money's net flow, bought minus sold, last 7 days",
      unit: "usd",
      condition: (t) => `and below ${formatUsd(t.net_flow_usd)}`,
    },
    smart_money_wallets: { label: "Smart-money wallets that held it", unit: "count" },
  },
};

export function formatMetric(unit: MetricUnit, value: number): string {
  switch (unit) {
    case "share":
      return formatShareExact(value);
    case "usd":
      return formatUsd(value);
    case "count":
      return formatCount(value);
    case "index":
      return formatIndex(value);
  }
}

export type ReadableMetric = {
  name: string;
  label: string;
  value: string;
  /** The condition in words; null for a metric given as context. */
  condition: string | null;
  /** This metric's condition is one that raised the flag. */
  tripped: boolean;
};

/** The evidence's metrics in the table's order, in words. */
export function readableMetrics(e: FlagEvidence): ReadableMetric[] {
  const table = EVIDENCE_METRICS[e.flag as RiskFlag] ?? {};
  return Object.entries(table)
    .filter(([name]) => e.metrics[name] !== undefined)
    .map(([name, m]) => ({
      name,
      label: m.label,
      value: formatMetric(m.unit, e.metrics[name]),
      condition: m.condition ? m.condition(e.thresholds) : null,
      tripped: e.tripped.includes(name),
    }));
}

/** The table as Markdown for the API reference. */
export function evidenceMetricsDoc(): string {
  return Object.entries(EVIDENCE_METRICS)
    .map(
      ([flag, metrics]) =>
        `${flag}: ` +
        Object.entries(metrics)
          .map(([name, m]) => `\`${name}\` ${m.label} (${UNIT_WORDS[m.unit]})`)
          .join("; "),
    )
    .join(". ");
}
