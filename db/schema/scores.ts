import { sql } from "drizzle-orm";
import { integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import type {
  Classification,
  Confidence,
  MissingSignal,
  NetActivity,
  RiskFlag,
  RiskLevel,
  TokenAdjustmentReason,
  WalletAdjustmentReason,
} from "../../lib/domain/vocab";
import { address, score, ts } from "./columns";

/** Evidence behind one raised flag: who, which transactions, which numbers crossed what. */
export type FlagEvidence = {
  flag: RiskFlag;
  /** The first MAX_EVIDENCE_ITEMS of wallet_count wallets, of tx_count transactions. */
  wallets: string[];
  tx_hashes: string[];
  wallet_count: number;
  tx_count: number;
  funder: string | null;
  metrics: Record<string, number>;
  thresholds: Record<string, number>;
  /** The metrics whose condition raised the flag (e.g. top1_share, not top10_share). */
  tripped: string[];
};

/** A named bound on a composite score (lib/scoring/composite.ts). */
export type ScoreAdjustment<R extends string> = { reason: R; min_score: number } | { reason: R; max_score: number };

export const tokenScores = pgTable("token_scores", {
  address: address().primaryKey(),
  riskScore: score().notNull(),
  riskLevel: text().$type<RiskLevel>().notNull(),
  flags: text().array().$type<RiskFlag[]>().notNull().default(sql`'{}'::text[]`),
  /** Signals the score could not read (lib/domain/vocab.ts MISSING_SIGNALS). */
  signalsMissing: text().array().$type<MissingSignal[]>().notNull().default(sql`'{}'::text[]`),
  /** Dimensions are null without enough data (their weight goes to the others). */
  holderConcentrationScore: score(),
  liquidityStabilityScore: score(),
  washTradeScore: score(),
  smartMoneyFlowScore: score(),
  earlyMoverCount: integer().notNull().default(0),
  earlyMoverNetActivity: text().$type<NetActivity>().notNull().default("holding"),
  /**
   * The ten largest real holders, whose mean reputation top_holder_summary reports as it is read:
   * a stored mean would depend on whether their wallet scores were refreshed before or after it.
   */
  reputationHolders: address().array().notNull().default(sql`'{}'::text[]`),
  flagEvidence: jsonb().$type<FlagEvidence[]>().notNull().default([]),
  /** The floors that raised risk_score above its weighted breakdown. */
  adjustments: jsonb().$type<ScoreAdjustment<TokenAdjustmentReason>[]>().notNull().default([]),
  methodVersion: text().notNull(),
  aiSummary: text().notNull().default(""),
  /** Hash of the summary input at the text's resolution: a model is asked again when it changes. */
  summaryInputHash: text(),
  /** Exact hash of the figures ai_summary was written from: a model's text is kept only while it holds. */
  summaryFactsHash: text(),
  updatedAt: ts().notNull().defaultNow(),
});

export const walletScores = pgTable("wallet_scores", {
  address: address().primaryKey(),
  reputationScore: score().notNull(),
  confidence: text().$type<Confidence>().notNull(),
  classification: text().$type<Classification>().notNull(),
  winRate: score(),
  entryTimingScore: score(),
  consistencyScore: score(),
  riskDrawdownScore: score(),
  /** The bounds that apply to reputation_score: the neutral floor of nothing to judge, the caps. */
  adjustments: jsonb().$type<ScoreAdjustment<WalletAdjustmentReason>[]>().notNull().default([]),
  closedPositions: integer().notNull().default(0),
  tradeCount: integer().notNull().default(0),
  methodVersion: text().notNull(),
  updatedAt: ts().notNull().defaultNow(),
});
