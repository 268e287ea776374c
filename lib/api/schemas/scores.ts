import { z } from "zod";
import {
  CLASSIFICATIONS,
  CONFIDENCE,
  MISSING_REASONS,
  MISSING_SIGNALS,
  NET_ACTIVITY,
  REPUTATION_DIMENSIONS,
  RISK_DIMENSIONS,
  RISK_FLAGS,
  RISK_LEVELS,
  TOKEN_ADJUSTMENT_REASONS,
  WALLET_ADJUSTMENT_REASONS,
} from "@/lib/domain/vocab";
import { evidenceMetricsDoc } from "@/lib/scoring/evidence-labels";
import { timestampSchema } from "./common";

const dimension = z.number().min(0).max(100);
/** A dimension without enough data is null (missing_dimensions says why), never a neutral 50. */
const maybeDimension = dimension.nullable();

/** A named floor or cap: the score is its weighted breakdown raised to every min_score, then held to every max_score. */
const adjustments = <R extends readonly [string, ...string[]]>(reasons: R, id: string) =>
  z
    .array(z.union([z.object({ reason: z.enum(reasons), min_score: dimension }), z.object({ reason: z.enum(reasons), max_score: dimension })]))
    .meta({ id, description: "Why the score differs from weighted_score: each entry moved it, by its reason" });

const missingDimensions = <D extends readonly [string, ...string[]]>(dimensions: D) =>
  z
    .array(z.object({ dimension: z.enum(dimensions), reason: z.enum(MISSING_REASONS) }))
    .meta({ description: "Dimensions without enough data (null in dimensions), with why; their weight went to the others" });

const weights = <D extends readonly [string, ...string[]]>(dimensions: D) =>
  z
    .record(z.enum(dimensions), z.number().min(0).max(1))
    .meta({ description: "The share of weighted_score each dimension carries: its documented weight, shared out over the dimensions with data" });

export const walletScore = z
  .object({
    address: z.string(),
    reputation_score: dimension.meta({ description: "weighted_score held to the lowest max_score of adjustments, rounded to 0.1" }),
    confidence: z.enum(CONFIDENCE),
    classification: z.enum(CLASSIFICATIONS),
    dimensions: z.object({
      win_rate: z.number().min(0).max(1).nullable().meta({ description: "A fraction, 0 to 1 (taken ×100 in the composite)" }),
      entry_timing_score: maybeDimension,
      consistency_score: maybeDimension,
      risk_drawdown_score: maybeDimension,
    }),
    weights: weights(REPUTATION_DIMENSIONS),
    weighted_score: dimension.meta({ description: "Σ weight × dimension over the dimensions with data, rounded to 0.1" }),
    adjustments: adjustments(WALLET_ADJUSTMENT_REASONS, "WalletScoreAdjustments"),
    missing_dimensions: missingDimensions(REPUTATION_DIMENSIONS),
    closed_positions: z.number().int().meta({ description: "Closed positions the record rests on" }),
    trade_count: z.number().int(),
    method_version: z.string(),
    updated_at: timestampSchema,
  })
  .meta({ id: "WalletScore" });

export const flagEvidence = z
  .object({
    flag: z.enum(RISK_FLAGS),
    wallets: z.array(z.string()).meta({ description: "The first 25 of wallet_count" }),
    tx_hashes: z.array(z.string()).meta({ description: "The first 25 of tx_count" }),
    wallet_count: z.number().int(),
    tx_count: z.number().int(),
    funder: z.string().nullable(),
    metrics: z.record(z.string(), z.number()).meta({ description: `Shares are fractions 0..1. ${evidenceMetricsDoc()}` }),
    thresholds: z.record(z.string(), z.number()),
    tripped: z.array(z.string()).meta({ description: "The metrics whose condition raised the flag" }),
  })
  .meta({ id: "FlagEvidence" });

export const tokenScore = z
  .object({
    address: z.string(),
    risk_score: dimension.meta({ description: "weighted_score raised to the highest min_score of adjustments, rounded to 0.1" }),
    risk_level: z.enum(RISK_LEVELS),
    confidence: z.enum(CONFIDENCE).meta({ description: "high when every dimension has data, medium when at least 70% of the weight has" }),
    flags: z.array(z.enum(RISK_FLAGS)),
    dimensions: z.object({
      holder_concentration_score: maybeDimension,
      liquidity_stability_score: maybeDimension,
      wash_trade_score: maybeDimension,
      smart_money_flow_score: maybeDimension,
    }),
    weights: weights(RISK_DIMENSIONS),
    weighted_score: dimension.meta({ description: "Σ weight × dimension over the dimensions with data, rounded to 0.1" }),
    adjustments: adjustments(TOKEN_ADJUSTMENT_REASONS, "TokenScoreAdjustments"),
    missing_dimensions: missingDimensions(RISK_DIMENSIONS),
    signals_missing: z.array(z.enum(MISSING_SIGNALS)).meta({
      description: "Signals the score could not read, so their flags cannot be raised: wallet_funding (no wallet's funder is known: sybil_cluster is blind)",
    }),
    top_holder_summary: z.object({
      early_mover_count: z.number().int(),
      early_mover_net_activity: z.enum(NET_ACTIVITY),
      avg_reputation_top10: z.number(),
    }),
    flag_evidence: z.array(flagEvidence),
    method_version: z.string(),
    updated_at: timestampSchema,
  })
  .meta({ id: "TokenScore" });
