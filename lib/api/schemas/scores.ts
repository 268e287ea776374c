import { z } from "zod";
import {
  CLASSIFICATIONS,
  CONFIDENCE,
  MISSING_REASONS,
  MISSING_SIGNALS,
  NET_ACTIVITY,
  REPUTATION_DIMENSIONS,
  type ReputationDimension,
  RISK_DIMENSIONS,
  RISK_FLAGS,
  RISK_LEVELS,
  type RiskDimension,
  TOKEN_ADJUSTMENT_REASONS,
  WALLET_ADJUSTMENT_REASONS,
} from "@/lib/domain/vocab";
import { evidenceMetricsDoc } from "@/lib/scoring/evidence-labels";
import { NO_EVIDENCE_REPUTATION, REPUTATION_NO_EVIDENCE, RISK_NO_EVIDENCE } from "@/lib/scoring/no-evidence";
import { MIN_CLOSED_POSITIONS } from "@/lib/scoring/weights";
import { timestampSchema } from "./common";

const dimension = z.number().min(0).max(100);

/** A dimension's meaning, and the value it carries without data (lib/scoring/no-evidence.ts). */
const withoutData = (text: string, value: number) =>
  `${text}. Without enough data (named in missing_dimensions, weight 0): ${value}, which stands for no evidence`;
const riskDim = (k: RiskDimension, text: string) =>
  dimension.meta({ description: withoutData(text, RISK_NO_EVIDENCE[k]) });
const reputationDim = (k: ReputationDimension, text: string) =>
  dimension.meta({ description: withoutData(text, REPUTATION_NO_EVIDENCE[k]) });
const winRate = withoutData("A fraction, 0 to 1 (taken ×100 in the composite)", REPUTATION_NO_EVIDENCE.win_rate);
const CLOSED_TRADES =
  `Closed trades the record rests on (the win rate needs ${MIN_CLOSED_POSITIONS}), as of ` +
  "updated_at: closed positions, and open ones sold down to less than $1 of value";
const MISSING =
  "Dimensions without enough data, with why: each weighs 0 (its weight went to the others) and carries its " +
  "no-evidence value";
const AVG_REPUTATION =
  "Average reputation score of the 10 largest real holders that have one; " +
  `${NO_EVIDENCE_REPUTATION} (no evidence) when none has`;
const WEIGHTED = "Σ weight × dimension (a dimension without data weighs 0), rounded to 0.1";

/**
 * A named floor or cap: the score is its weighted breakdown raised to every min_score, then held to every max_score.
 */
const adjustments = <R extends readonly [string, ...string[]]>(reasons: R, id: string) =>
  z
    .array(
      z.union([
        z.object({
          reason: z.enum(reasons).meta({ description: "What set the floor" }),
          min_score: dimension.meta({ description: "The score is at least this" }),
        }),
        z.object({
          reason: z.enum(reasons).meta({ description: "What set the cap" }),
          max_score: dimension.meta({ description: "The score is at most this" }),
        }),
      ]),
    )
    .meta({ id, description: "Why the score differs from weighted_score: each entry moved it, by its reason" });

const missingDimensions = <D extends readonly [string, ...string[]]>(dimensions: D) =>
  z
    .array(
      z.object({
        dimension: z.enum(dimensions).meta({ description: "The dimension without data" }),
        reason: z.enum(MISSING_REASONS).meta({ description: "Why it has none" }),
      }),
    )
    .meta({ description: MISSING });

const weights = <D extends readonly [string, ...string[]]>(dimensions: D) =>
  z.record(z.enum(dimensions), z.number().min(0).max(1)).meta({
    description:
      "The share of weighted_score each dimension carries: its documented weight, shared out over the dimensions " +
      "with data",
  });

export const walletScore = z
  .object({
    address: z.string().meta({ description: "Wallet or token address, lowercase" }),
    reputation_score: dimension.meta({
      description: "weighted_score raised to any min_score of adjustments, held to the lowest max_score, to 0.1",
    }),
    confidence: z.enum(CONFIDENCE).meta({ description: "Confidence in the score: low, medium or high" }),
    classification: z.enum(CLASSIFICATIONS).meta({
      description: "Behavioural class: smart_money, sniper, bot, insider, whale, wash_trader, fresh or retail",
    }),
    dimensions: z
      .object({
        win_rate: z.number().min(0).max(1).meta({ description: winRate }),
        entry_timing_score: reputationDim(
          "entry_timing_score",
          "How early the wallet gets into tokens (full credit within a minute of launch, none after a week), 0 to 100",
        ),
        consistency_score: reputationDim(
          "consistency_score",
          "Share of weeks with a positive realised result, shrunk and penalised for one-hit records, 0 to 100",
        ),
        risk_drawdown_score: reputationDim(
          "risk_drawdown_score",
          "100 less its drawdown and risk-taking penalties, 0 to 100",
        ),
      })
      .meta({ description: "Breakdown by dimension, always numbers (higher is better)" }),
    weights: weights(REPUTATION_DIMENSIONS),
    weighted_score: dimension.meta({ description: WEIGHTED }),
    adjustments: adjustments(WALLET_ADJUSTMENT_REASONS, "WalletScoreAdjustments"),
    missing_dimensions: missingDimensions(REPUTATION_DIMENSIONS),
    closed_positions: z.number().int().meta({
      description: "Positions the wallet holds none of: the total of GET /wallets/{address}/positions?status=closed",
    }),
    closed_trades: z.number().int().meta({ description: CLOSED_TRADES }),
    trade_count: z.number().int().meta({ description: "Number of trades (swaps) the wallet made" }),
    method_version: z
      .string()
      .meta({ description: "Version of the scoring method that computed the score; a new version may move scores" }),
    updated_at: timestampSchema.meta({ description: "Time of the last score update" }),
  })
  .meta({ id: "WalletScore" });

export const flagEvidence = z
  .object({
    flag: z.enum(RISK_FLAGS).meta({ description: "The flag" }),
    wallets: z.array(z.string()).meta({ description: "The first 25 of wallet_count" }),
    tx_hashes: z.array(z.string()).meta({ description: "The first 25 of tx_count" }),
    wallet_count: z.number().int().meta({ description: "Wallets involved" }),
    tx_count: z.number().int().meta({ description: "Transactions involved" }),
    funder: z.string().nullable().meta({ description: "The common funder of the wallets, when one funded them" }),
    metrics: z
      .record(z.string(), z.number())
      .meta({ description: `Shares are fractions 0..1. ${evidenceMetricsDoc()}` }),
    thresholds: z.record(z.string(), z.number()).meta({ description: "The thresholds the metrics were compared with" }),
    tripped: z.array(z.string()).meta({ description: "The metrics whose condition raised the flag" }),
  })
  .meta({ id: "FlagEvidence" });

export const tokenScore = z
  .object({
    address: z.string().meta({ description: "Wallet or token address, lowercase" }),
    risk_score: dimension.meta({
      description: "weighted_score raised to the highest min_score of adjustments, rounded to 0.1",
    }),
    risk_level: z
      .enum(RISK_LEVELS)
      .meta({ description: "Risk level: low (<25), medium (<50), high (<75) or critical" }),
    confidence: z
      .enum(CONFIDENCE)
      .meta({ description: "high when every dimension has data, medium when at least 70% of the weight has" }),
    flags: z.array(z.enum(RISK_FLAGS)).meta({ description: "Risk flags raised (values as on the token)" }),
    dimensions: z
      .object({
        holder_concentration_score: riskDim(
          "holder_concentration_score",
          "Who can dump the supply: concentration of the circulating supply in few owners, " +
            "0 to 100 (higher is riskier)",
        ),
        liquidity_stability_score: riskDim(
          "liquidity_stability_score",
          "Can the pool disappear: drawdowns and pulls of the token's liquidity, 0 to 100 (higher is riskier)",
        ),
        wash_trade_score: riskDim(
          "wash_trade_score",
          "Is the volume real: round trips by one wallet or one cluster, 0 to 100 (higher is riskier)",
        ),
        smart_money_flow_score: riskDim(
          "smart_money_flow_score",
          "Are wallets with a good record leaving: smart-money exits, 0 to 100 (higher is riskier)",
        ),
      })
      .meta({ description: "Breakdown by dimension, each 0 to 100, always numbers" }),
    weights: weights(RISK_DIMENSIONS),
    weighted_score: dimension.meta({ description: WEIGHTED }),
    adjustments: adjustments(TOKEN_ADJUSTMENT_REASONS, "TokenScoreAdjustments"),
    missing_dimensions: missingDimensions(RISK_DIMENSIONS),
    signals_missing: z.array(z.enum(MISSING_SIGNALS)).meta({
      description:
        "Signals the score could not read, so their flags cannot be raised: wallet_funding (no wallet's funder is " +
        "known: sybil_cluster is blind)",
    }),
    top_holder_summary: z
      .object({
        early_mover_count: z.number().int().meta({
          description: "Wallets that bought within the first 20 blocks after launch, whether or not they still hold",
        }),
        early_mover_net_activity: z.enum(NET_ACTIVITY).meta({
          description:
            "Net direction of the early movers together: their combined balance and their swaps of the last 24 h; " +
            "holding when there are none",
        }),
        avg_reputation_top10: z.number().meta({ description: AVG_REPUTATION }),
      })
      .meta({ description: "Summary of the top holders" }),
    flag_evidence: z
      .array(flagEvidence)
      .meta({ description: "For each raised flag: the wallets, transactions and metrics behind it" }),
    method_version: z
      .string()
      .meta({ description: "Version of the scoring method that computed the score; a new version may move scores" }),
    updated_at: timestampSchema.meta({ description: "Time of the last score update" }),
  })
  .meta({ id: "TokenScore" });
