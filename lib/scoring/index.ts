/** The scoring engine's public surface, for the worker. */

export * from "@/lib/domain/vocab";
export { type Adjustment, adjustedScore, effectiveWeights, type MissingDimension, weightedScore } from "./composite";
export type { FlagEvidence } from "./evidence";
export { generateSummaryWithLlm, type LlmEndpoint, type WrittenSummary, writeSummary } from "./llm";
export { type NetActivityInput, netActivity, recentFlows } from "./net-activity";
export {
  compositeRisk,
  finishTokenRisk,
  type RiskDimensions,
  recentSwaps,
  riskLevel,
  scoreTokenRisk,
  scoreTokenRiskWithParts,
  type TokenRiskParts,
  type TokenRiskResult,
  tokenConfidence,
} from "./risk";
export { preferredSector, sectorOf } from "./sector";
export { smartMoneyFlow } from "./smart-money";
export {
  deterministicSummary,
  type SummaryInput,
  summaryFactsHash,
  summaryInputFrom,
  summaryInputHash,
} from "./summary";
export type * from "./token-input";
export type * from "./wallet-input";
export { scoreWallet, type WalletScoreResult } from "./wallet-score";
export * from "./weights";
