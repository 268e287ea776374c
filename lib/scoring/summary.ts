/**
 * ai_summary without a model: a data-to-text paragraph in which every number comes from the
 * input (what the token is, how it trades, how risky it is and why), and the hash that tells
 * the worker when the data behind a summary has changed enough to write it again.
 */
import { createHash } from "node:crypto";
import type { RiskFlag, RiskLevel, Sector, TokenAdjustmentReason } from "@/lib/domain/vocab";
import { type Adjustment, moved } from "./composite";
import type { FlagEvidence } from "./evidence";
import { formatCount, formatDate, formatPct, formatShare, formatUsd } from "./format";
import type { RiskDimensions, TokenRiskResult } from "./risk";
import { ADJUSTMENT_REASON_TEXT, RISK_DIMENSION_LABELS } from "./score-labels";
import { METHOD_VERSION, SUMMARY_BUCKETS } from "./weights";

export type SummaryInput = {
  name: string;
  symbol: string;
  sector: Sector;
  launchpad: string;
  /** tokens.created_at, Unix seconds. */
  createdAt: number;
  marketCapUsd: number;
  volume24hUsd: number;
  liquidityUsd: number;
  holderCount: number;
  /** Percent, e.g. 12.5 for +12.5%. */
  holderGrowth1hPct: number;
  riskScore: number;
  riskLevel: RiskLevel;
  /** Null where a dimension has no data. */
  dimensions: RiskDimensions;
  /** The weighted breakdown, and the floors that raised it to riskScore. */
  weightedScore: number;
  adjustments: Adjustment<TokenAdjustmentReason>[];
  flagEvidence: FlagEvidence[];
};

/** The summary input from the token row, its metrics row and its risk score. */
export function summaryInputFrom(
  token: Pick<SummaryInput, "name" | "symbol" | "sector" | "launchpad" | "createdAt">,
  market: Pick<SummaryInput, "marketCapUsd" | "volume24hUsd" | "liquidityUsd" | "holderCount" | "holderGrowth1hPct">,
  risk: TokenRiskResult,
): SummaryInput {
  return {
    ...token,
    ...market,
    riskScore: risk.riskScore,
    riskLevel: risk.riskLevel,
    dimensions: risk.dimensions,
    weightedScore: risk.weightedScore,
    adjustments: risk.adjustments,
    flagEvidence: risk.flagEvidence,
  };
}

// ---- the paragraph ------------------------------------------------------------------------

const SECTOR_LABEL: Record<Sector, string | null> = {
  meme: "meme",
  ai: "AI",
  defi: "DeFi",
  gaming: "gaming",
  other: null,
};

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${Math.round(n) === 1 ? "" : "s"}`;

/** One clause per raised flag, built on the metric that crossed its threshold. */
const FLAG_CLAUSES: Record<RiskFlag, (m: Record<string, number>, t: Record<string, number>) => string | null> = {
  wash_trading: (m) =>
    m.wash_share === undefined
      ? null
      : `${formatShare(m.wash_share)} of recent volume came from matched buy-and-sell round trips` +
        (m.wash_entities ? ` by ${plural(m.wash_entities, "trader")}` : ""),
  liquidity_pulled: (m, t) =>
    m.provider_removed_share !== undefined && m.provider_removed_share >= (t.provider_removed_share ?? Infinity)
      ? `one provider removed ${formatShare(m.provider_removed_share)} of the pool`
      : m.fast_drawdown === undefined
        ? null
        : `liquidity fell ${formatShare(m.fast_drawdown)} within a day as its own provider sold into the pool, ` +
          "and has not recovered",
  concentrated_ownership: (m, t) =>
    m.top10_share === undefined || m.top1_share === undefined
      ? null
      : m.top1_share >= (t.top1_share ?? Infinity)
        ? `the largest owner holds ${formatShare(m.top1_share)} of supply, ` +
          `the ten largest ${formatShare(m.top10_share)}`
        : `the ten largest owners hold ${formatShare(m.top10_share)} of supply, ` +
          `the largest ${formatShare(m.top1_share)}`,
  sybil_cluster: (m) =>
    m.wallets === undefined || m.supply_share === undefined
      ? null
      : `${plural(m.wallets, "wallet")} of one funder bought together, ` +
        `accounting for ${formatShare(m.supply_share)} of supply`,
  smart_money_exiting: (m) =>
    m.exiting_wallets === undefined || m.smart_money_wallets === undefined
      ? null
      : `${formatCount(m.exiting_wallets)} of ${plural(m.smart_money_wallets, "smart-money wallet")} ` +
        "sold at least half their position recently" +
        (m.net_flow_usd < 0 ? `, a net outflow of ${formatUsd(-m.net_flow_usd)}` : ""),
};

function flagClause(e: FlagEvidence): string {
  const name = e.flag.replace(/_/g, " ");
  const detail = FLAG_CLAUSES[e.flag as RiskFlag]?.(e.metrics, e.thresholds);
  return detail ? `${name} (${detail})` : name;
}

function identity(i: SummaryInput): string {
  const label = SECTOR_LABEL[i.sector];
  const kind = label ? `${/^[AEIOU]/i.test(label) ? "an" : "a"} ${label} token` : "a token";
  return `${i.name} (${i.symbol}) is ${kind} launched on ${i.launchpad} on ${formatDate(i.createdAt)}.`;
}

function trading(i: SummaryInput): string {
  const growth =
    Math.round(i.holderGrowth1hPct * 10) === 0
      ? ""
      : ` (${i.holderGrowth1hPct > 0 ? "+" : "-"}${formatPct(Math.abs(i.holderGrowth1hPct))} in the last hour)`;
  const volume =
    i.volume24hUsd > 0 ? `${formatUsd(i.volume24hUsd)} traded in the last day` : "no trades in the last day";
  // Market cap is 0 only without a price: no pool holds the minimum liquidity (docs/methodology.md).
  const cap =
    i.marketCapUsd > 0 ? `a market cap of ${formatUsd(i.marketCapUsd)}` : "no price, as no pool holds enough liquidity";
  const holders = `${plural(i.holderCount, "holder")}${growth}`;
  return `It has ${holders}, ${formatUsd(i.liquidityUsd)} of liquidity and ${cap}, with ${volume}.`;
}

/**
 * Why the score is above its weighted breakdown, when a floor other than a flag's raised it. A
 * floor the breakdown already meets raised nothing, so it is not named (composite's `moved`).
 */
function raisedBy(i: SummaryInput): string {
  const floors = i.adjustments.flatMap((a) => ("min_score" in a && moved(a, i.weightedScore) ? [a] : []));
  const floor = floors.sort((a, b) => b.min_score - a.min_score)[0];
  if (!floor || i.flagEvidence.some((e) => e.flag === floor.reason)) return "";
  const because = ADJUSTMENT_REASON_TEXT[floor.reason];
  return ` (its breakdown weighs ${Math.round(i.weightedScore)}, raised because ${because})`;
}

function risk(i: SummaryInput): string {
  const head = `Its risk is ${i.riskLevel} with a score of ${Math.round(i.riskScore)}${raisedBy(i)}`;
  if (i.flagEvidence.length) {
    const flags = i.flagEvidence.map(flagClause);
    return `${head}; flags raised: ${flags.join("; ")}.`;
  }
  const known = (Object.entries(i.dimensions) as [keyof RiskDimensions, number | null][]).filter(
    (e): e is [keyof RiskDimensions, number] => e[1] !== null,
  );
  const top = known.sort((a, b) => b[1] - a[1])[0];
  return top
    ? `${head} and no risk flag; ` +
        `its riskiest dimension is ${RISK_DIMENSION_LABELS[top[0]].toLowerCase()} at ${Math.round(top[1])}.`
    : `${head} and no risk flag.`;
}

export function deterministicSummary(input: SummaryInput): string {
  return [identity(input), trading(input), risk(input)].join(" ");
}

// ---- when to write it again ---------------------------------------------------------------

/** Log-scale bucket with the sign: values within ~26% of each other mostly share one. */
const logBucket = (v: number) =>
  v === 0 ? [0] : [Math.sign(v), Math.floor(Math.log10(Math.abs(v)) * SUMMARY_BUCKETS.perDecade)];
const pointsBucket = (points: number) => Math.floor(points / SUMMARY_BUCKETS.points);
/** Flag metrics: shares in points buckets, counts and USD on the log scale. */
const metricBucket = (v: number) => (Math.abs(v) <= 1 ? pointsBucket(v * 100) : logBucket(v));

/**
 * A hash of the input at the resolution the text cares about: it changes when a USD value or a
 * count moves to another log bucket, a score or percentage to another 5-point bucket, a flag
 * or its key metrics change, or the method version changes; not on every new block.
 */
export function summaryInputHash(input: SummaryInput): string {
  const material = {
    method: METHOD_VERSION,
    token: [input.name, input.symbol, input.sector, input.launchpad, formatDate(input.createdAt)],
    market: [input.marketCapUsd, input.volume24hUsd, input.liquidityUsd, input.holderCount].map(logBucket),
    growth: pointsBucket(input.holderGrowth1hPct),
    risk: [input.riskLevel, pointsBucket(input.riskScore)],
    dimensions: Object.keys(input.dimensions)
      .sort()
      .map((k) => [
        k,
        input.dimensions[k as keyof RiskDimensions] === null
          ? null
          : pointsBucket(input.dimensions[k as keyof RiskDimensions]!),
      ]),
    adjustments: input.adjustments.map((a) => a.reason).sort(),
    flags: [...input.flagEvidence]
      .sort((a, b) => a.flag.localeCompare(b.flag))
      .map((e) => [
        e.flag,
        Object.keys(e.metrics)
          .sort()
          .map((k) => [k, metricBucket(e.metrics[k])]),
      ]),
  };
  return createHash("sha256").update(JSON.stringify(material)).digest("hex").slice(0, 32);
}

/**
 * A hash of every figure a summary may state, exactly (wallets and transactions aside, which
 * no summary names): a summary written from other figures would state numbers that differ from
 * the fields served beside it, so the worker keeps a model's text only while this is unchanged.
 */
export function summaryFactsHash(input: SummaryInput): string {
  const facts = {
    method: METHOD_VERSION,
    ...input,
    flagEvidence: input.flagEvidence.map(({ flag, metrics, thresholds }) => ({ flag, metrics, thresholds })),
  };
  return createHash("sha256").update(JSON.stringify(facts)).digest("hex").slice(0, 32);
}
