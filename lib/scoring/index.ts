/** The scoring engine's public surface, for the worker. */
export * from "./vocab";
export * from "./weights";
export type * from "./token-input";
export type * from "./wallet-input";
export type { FlagEvidence } from "./evidence";
export { adjustedScore, effectiveWeights, weightedScore, type Adjustment, type MissingDimension } from "./composite";
export { scoreTokenRisk, compositeRisk, riskLevel, tokenConfidence, type TokenRiskResult, type RiskDimensions } from "./risk";
export { scoreWallet, type WalletScoreResult } from "./wallet-score";
export { netActivity, recentFlows, type NetActivityInput } from "./net-activity";
export { sectorOf, preferredSector } from "./sector";
export { deterministicSummary, summaryFactsHash, summaryInputFrom, summaryInputHash, type SummaryInput } from "./summary";
export { writeSummary, generateSummaryWithLlm, type LlmEndpoint, type WrittenSummary } from "./llm";
