import { sql } from "drizzle-orm";
import { integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { address, score, ts } from "./columns";

/** Evidence behind one raised flag: who, which transactions, which numbers crossed what. */
export type FlagEvidence = {
  flag: string;
  wallets: string[];
  tx_hashes: string[];
  funder: string | null;
  metrics: Record<string, number>;
  thresholds: Record<string, number>;
};

export const tokenScores = pgTable("token_scores", {
  address: address().primaryKey(),
  riskScore: score().notNull(),
  riskLevel: text().notNull(),
  flags: text().array().notNull().default(sql`'{}'::text[]`),
  holderConcentrationScore: score().notNull(),
  liquidityStabilityScore: score().notNull(),
  washTradeScore: score().notNull(),
  smartMoneyFlowScore: score().notNull(),
  earlyMoverCount: integer().notNull().default(0),
  earlyMoverNetActivity: text().notNull().default("holding"),
  avgReputationTop10: score().notNull().default(0),
  flagEvidence: jsonb().$type<FlagEvidence[]>().notNull().default([]),
  methodVersion: text().notNull(),
  aiSummary: text().notNull().default(""),
  /** Hash of the inputs the summary was written from; regenerate only when it changes. */
  summaryInputHash: text(),
  updatedAt: ts().notNull().defaultNow(),
});

export const walletScores = pgTable("wallet_scores", {
  address: address().primaryKey(),
  reputationScore: score().notNull(),
  confidence: text().notNull(),
  classification: text().notNull(),
  winRate: score().notNull(),
  entryTimingScore: score().notNull(),
  consistencyScore: score().notNull(),
  riskDrawdownScore: score().notNull(),
  tradeCount: integer().notNull().default(0),
  methodVersion: text().notNull(),
  updatedAt: ts().notNull().defaultNow(),
});
