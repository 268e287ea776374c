import { z } from "zod";
import { CLASSIFICATIONS, CONFIDENCE, NET_ACTIVITY, RISK_FLAGS, RISK_LEVELS } from "@/lib/scoring/vocab";
import { timestampSchema } from "./common";

const dimension = z.number().min(0).max(100);

export const walletScore = z
  .object({
    address: z.string(),
    reputation_score: dimension,
    confidence: z.enum(CONFIDENCE),
    classification: z.enum(CLASSIFICATIONS),
    dimensions: z.object({
      win_rate: z.number().min(0).max(1).meta({ description: "A fraction, 0 to 1" }),
      entry_timing_score: dimension,
      consistency_score: dimension,
      risk_drawdown_score: dimension,
    }),
    trade_count: z.number().int(),
    method_version: z.string(),
    updated_at: timestampSchema,
  })
  .meta({ id: "WalletScore" });

export const flagEvidence = z
  .object({
    flag: z.enum(RISK_FLAGS),
    wallets: z.array(z.string()),
    tx_hashes: z.array(z.string()),
    funder: z.string().nullable(),
    metrics: z.record(z.string(), z.number()),
    thresholds: z.record(z.string(), z.number()),
  })
  .meta({ id: "FlagEvidence" });

export const tokenScore = z
  .object({
    address: z.string(),
    risk_score: dimension,
    risk_level: z.enum(RISK_LEVELS),
    flags: z.array(z.enum(RISK_FLAGS)),
    dimensions: z.object({
      holder_concentration_score: dimension,
      liquidity_stability_score: dimension,
      wash_trade_score: dimension,
      smart_money_flow_score: dimension,
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
