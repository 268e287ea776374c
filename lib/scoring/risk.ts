/**
 * Token risk: the four dimensions, the five flags with their evidence, the weighted composite
 * with its floors, the risk level and the top-holder summary, in the shape of token_scores.
 */
import { holderConcentration, isRealHolder } from "./concentration";
import { resolveEntities } from "./entities";
import type { FlagEvidence } from "./evidence";
import { topHolderSummary, type TopHolderSummary } from "./holder-summary";
import { liquidityStability } from "./liquidity";
import { clamp, weightedMean } from "./ramp";
import { smartMoneyFlow } from "./smart-money";
import { sybilCluster } from "./sybil";
import type { TokenRiskInput } from "./token-input";
import { RISK_FLAGS, type RiskFlag, type RiskLevel } from "./vocab";
import { washTrading } from "./wash";
import { METHOD_VERSION, NEW_TOKEN, RISK_FLOORS, RISK_LEVEL_UPPER_BOUNDS, RISK_WEIGHTS, SEVERE_DIMENSION, WINDOWS } from "./weights";

export type RiskDimensions = Record<keyof typeof RISK_WEIGHTS, number>;

export type TokenRiskResult = TopHolderSummary & {
  riskScore: number;
  riskLevel: RiskLevel;
  flags: RiskFlag[];
  holderConcentrationScore: number;
  liquidityStabilityScore: number;
  washTradeScore: number;
  smartMoneyFlowScore: number;
  flagEvidence: FlagEvidence[];
  methodVersion: string;
};

export function riskLevel(score: number): RiskLevel {
  return RISK_LEVEL_UPPER_BOUNDS.find(([, below]) => score < below)?.[0] ?? "critical";
}

export type RiskFindings = { flags: RiskFlag[]; ageSeconds: number };

/** The least risk score the findings allow: each raised flag's, a severe dimension's, a new token's. */
function riskFloors(dimensions: RiskDimensions, { flags, ageSeconds }: RiskFindings): number[] {
  const severe = (Object.entries(SEVERE_DIMENSION.from) as [keyof RiskDimensions, number][]).some(([k, from]) => dimensions[k] >= from);
  return [
    ...flags.map((f) => RISK_FLOORS[f]),
    ...(severe ? [SEVERE_DIMENSION.floor] : []),
    ...(ageSeconds < NEW_TOKEN.maxAgeHours * 3_600 ? [NEW_TOKEN.floor] : []),
  ];
}

/** Σ wᵢ·dimensionᵢ, then at least every floor. */
export function compositeRisk(dimensions: RiskDimensions, findings: RiskFindings): number {
  const keys = Object.keys(RISK_WEIGHTS) as (keyof RiskDimensions)[];
  const weighted = weightedMean(keys.map((k) => ({ weight: RISK_WEIGHTS[k], value: dimensions[k] })));
  return clamp(Math.max(weighted, ...riskFloors(dimensions, findings)), 0, 100);
}

export function scoreTokenRisk(input: TokenRiskInput): TokenRiskResult {
  const { token, now } = input;
  const swaps = input.swaps.filter((s) => s.timestamp > now - WINDOWS.swapLookbackSeconds && s.timestamp <= now);
  const earlyBuys = input.earlyBuys.filter(
    (b) => b.direction === "buy" && b.block >= token.launchBlock && b.block <= token.launchBlock + WINDOWS.earlyMoverBlocks,
  );
  const involved = [
    ...input.holders.filter(isRealHolder).map((h) => ({ address: h.address, clusterId: h.clusterId })),
    ...[...swaps, ...earlyBuys].map((s) => ({ address: s.wallet, clusterId: s.clusterId })),
  ];
  const resolver = resolveEntities(involved, input.clusters);

  const concentration = holderConcentration(token, input.holders, resolver);
  const liquidity = liquidityStability({ ...input, swaps }, resolver);
  const wash = washTrading(swaps, resolver);
  const smartMoney = smartMoneyFlow(input.smartMoney, swaps);
  const sybil = sybilCluster({ token, holders: input.holders, earlyBuys, swaps }, resolver);

  const evidence = [wash.flag, liquidity.flag, concentration.flag, sybil, smartMoney.flag];
  const raised = RISK_FLAGS.flatMap((f) => evidence.filter((e): e is FlagEvidence => e?.flag === f));
  const flags = raised.map((e) => e.flag as RiskFlag);
  const dimensions: RiskDimensions = {
    holder_concentration_score: concentration.score,
    liquidity_stability_score: liquidity.score,
    wash_trade_score: wash.score,
    smart_money_flow_score: smartMoney.score,
  };
  const riskScore = compositeRisk(dimensions, { flags, ageSeconds: now - token.launchedAt });
  return {
    riskScore,
    riskLevel: riskLevel(riskScore),
    flags,
    holderConcentrationScore: dimensions.holder_concentration_score,
    liquidityStabilityScore: dimensions.liquidity_stability_score,
    washTradeScore: dimensions.wash_trade_score,
    smartMoneyFlowScore: dimensions.smart_money_flow_score,
    flagEvidence: raised,
    methodVersion: METHOD_VERSION,
    ...topHolderSummary(input.holders, earlyBuys, swaps, now),
  };
}
