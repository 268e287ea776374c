/**
 * Token risk: the four dimensions (null without data), the five flags with their evidence, the
 * weighted composite with its named floors, confidence, the risk level and the top-holder
 * summary, in the shape of token_scores.
 */

import {
  type Confidence,
  type MissingReason,
  type MissingSignal,
  RISK_DIMENSIONS,
  RISK_FLAGS,
  type RiskDimension,
  type RiskFlag,
  type RiskLevel,
  type TokenAdjustmentReason,
} from "@/lib/domain/vocab";
import {
  type Adjustment,
  type Composite,
  composite,
  type MissingDimension,
  missingDimensions,
  publishedScore as published,
} from "./composite";
import { type ConcentrationResult, holderConcentration, isRealHolder } from "./concentration";
import { resolveEntities } from "./entities";
import type { FlagEvidence } from "./evidence";
import { type TopHolderSummary, topHolderSummary } from "./holder-summary";
import { type LiquidityResult, liquidityStability } from "./liquidity";
import { type SmartMoneyResult, smartMoneyFlow } from "./smart-money";
import { fundingMissing, sybilCluster } from "./sybil";
import type { Swap, TokenRiskInput } from "./token-input";
import { type WashResult, washTrading } from "./wash";
import {
  COMBINED_FLAG_FLOORS,
  METHOD_VERSION,
  NEW_TOKEN,
  RISK_FLOORS,
  RISK_LEVEL_UPPER_BOUNDS,
  RISK_WEIGHTS,
  SEVERE_DIMENSION,
  TOKEN_CONFIDENCE,
  WINDOWS,
} from "./weights";

export type RiskDimensions = Record<RiskDimension, number | null>;

/** How each risk dimension can lack data: no owners, no pool ever, no trades in the window, no smart money. */
export const RISK_DIMENSION_GAPS: Record<RiskDimension, MissingReason> = {
  holder_concentration_score: "no_holders",
  liquidity_stability_score: "no_liquidity",
  wash_trade_score: "no_recent_trades",
  smart_money_flow_score: "no_smart_money",
};

export type TokenRiskResult = TopHolderSummary & {
  riskScore: number;
  riskLevel: RiskLevel;
  confidence: Confidence;
  flags: RiskFlag[];
  /** At the published precision; null without data (missingDimensions says why). */
  dimensions: RiskDimensions;
  missingDimensions: MissingDimension<RiskDimension>[];
  /** Signals that could not be read (their flags cannot be raised). */
  signalsMissing: MissingSignal[];
  /** The weighted breakdown before adjustments. */
  weightedScore: number;
  adjustments: Adjustment<TokenAdjustmentReason>[];
  flagEvidence: FlagEvidence[];
  methodVersion: string;
};

export function riskLevel(score: number): RiskLevel {
  return RISK_LEVEL_UPPER_BOUNDS.find(([, below]) => score < below)?.[0] ?? "critical";
}

/** Confidence follows the share of the breakdown's weight that has data. */
export function tokenConfidence(dimensions: RiskDimensions): Confidence {
  const known = RISK_DIMENSIONS.filter((k) => dimensions[k] !== null).reduce((total, k) => total + RISK_WEIGHTS[k], 0);
  if (known >= TOKEN_CONFIDENCE.high - 1e-9) return "high";
  return known >= TOKEN_CONFIDENCE.medium - 1e-9 ? "medium" : "low";
}

export type RiskFindings = {
  flags: RiskFlag[];
  ageSeconds: number;
  /**
   * Dimensions as the severe floor judges them, where that differs from the published ones (liquidity without
   * unlocked_lp_share).
   */
  realized?: Partial<RiskDimensions>;
};

const SEVERE_REASON = {
  holder_concentration_score: "severe_holder_concentration",
  liquidity_stability_score: "severe_liquidity_instability",
} as const satisfies Record<keyof typeof SEVERE_DIMENSION.from, TokenAdjustmentReason>;

/**
 * The floors the findings set: each raised flag's, each raised combination's, each severe dimension's, a new
 * token's.
 */
function riskFloors(
  dimensions: RiskDimensions,
  { flags, ageSeconds, realized }: RiskFindings,
): Adjustment<TokenAdjustmentReason>[] {
  const judged = { ...dimensions, ...realized };
  const severe = (Object.keys(SEVERE_DIMENSION.from) as (keyof typeof SEVERE_DIMENSION.from)[]).filter(
    (k) => (judged[k] ?? 0) >= SEVERE_DIMENSION.from[k],
  );
  return [
    ...flags.map((f) => ({ reason: f, min_score: RISK_FLOORS[f] })),
    ...Object.entries(COMBINED_FLAG_FLOORS)
      .filter(([, c]) => c.flags.every((f) => flags.includes(f)))
      .map(([reason, c]) => ({ reason: reason as keyof typeof COMBINED_FLAG_FLOORS, min_score: c.floor })),
    ...severe.map((k) => ({ reason: SEVERE_REASON[k], min_score: SEVERE_DIMENSION.floor })),
    ...(ageSeconds < NEW_TOKEN.maxAgeHours * 3_600
      ? [{ reason: "new_token" as const, min_score: NEW_TOKEN.floor }]
      : []),
  ];
}

/**
 * Whether the pool's providers can take its liquidity out (SEVERE_DIMENSION.lockedLpShare); unknown locks count as
 * open.
 */
const providersCanPull = (lpLockedShare: number | null) =>
  lpLockedShare === null || lpLockedShare < SEVERE_DIMENSION.lockedLpShare;

/** Σ wᵢ·dimensionᵢ over the dimensions with data, then raised to the floors it is below. */
export const compositeRisk = (dimensions: RiskDimensions, findings: RiskFindings): Composite<TokenAdjustmentReason> =>
  composite(RISK_WEIGHTS, dimensions, riskFloors(dimensions, findings));

/**
 * Everything of a token's risk but its smart-money flow: what its holders' classifications cannot
 * move. A refresh that scores a token again after its wallets (their classifications moved) keeps
 * these and reads only its smart money again (worker/derive/scoring/token-inputs.ts).
 */
export type TokenRiskParts = TopHolderSummary & {
  launchedAt: number;
  now: number;
  lpLockedShare: number | null;
  concentration: Pick<ConcentrationResult, "score" | "flag">;
  liquidity: Pick<LiquidityResult, "score" | "realizedScore" | "flag">;
  wash: Pick<WashResult, "score" | "flag">;
  sybil: FlagEvidence | null;
  fundingMissing: boolean;
};

/** The swaps of the lookback window as of `now`: the only ones the risk reads, smart money's among them. */
export const recentSwaps = <S extends Swap>(swaps: S[], now: number): S[] =>
  swaps.filter((s) => s.timestamp > now - WINDOWS.swapLookbackSeconds && s.timestamp <= now);

/** `swaps`: the input's recent ones (recentSwaps). */
export function tokenRiskParts(input: Omit<TokenRiskInput, "smartMoney">, swaps: Swap[]): TokenRiskParts {
  const { token, now } = input;
  const earlyBuys = input.earlyBuys.filter(
    (b) =>
      b.direction === "buy" && b.block >= token.launchBlock && b.block <= token.launchBlock + WINDOWS.earlyMoverBlocks,
  );
  const involved = [
    ...input.holders.filter(isRealHolder).map((h) => ({ address: h.address, clusterId: h.clusterId })),
    ...[...swaps, ...earlyBuys].map((s) => ({ address: s.wallet, clusterId: s.clusterId })),
  ];
  const resolver = resolveEntities(involved, input.clusters);
  const { score, flag } = holderConcentration(token, input.holders, resolver);
  const liquidity = liquidityStability({ ...input, swaps }, resolver);
  const wash = washTrading(swaps, resolver);
  const sybilInput = { token, holders: input.holders, earlyBuys, swaps };
  return {
    launchedAt: token.launchedAt,
    now,
    lpLockedShare: input.lpLockedShare,
    concentration: { score, flag },
    liquidity: { score: liquidity.score, realizedScore: liquidity.realizedScore, flag: liquidity.flag },
    wash: { score: wash.score, flag: wash.flag },
    sybil: sybilCluster(sybilInput, resolver),
    fundingMissing: fundingMissing(sybilInput),
    ...topHolderSummary(input.holders, earlyBuys, swaps, now),
  };
}

/** The risk of a token from its parts and its smart-money flow. */
export function finishTokenRisk(parts: TokenRiskParts, smartMoney: SmartMoneyResult): TokenRiskResult {
  const { launchedAt, now, lpLockedShare, concentration, liquidity, wash, sybil, fundingMissing, ...summary } = parts;
  const evidence = [wash.flag, liquidity.flag, concentration.flag, sybil, smartMoney.flag];
  const raised = RISK_FLAGS.flatMap((f) => evidence.filter((e): e is FlagEvidence => e?.flag === f));
  const flags = raised.map((e) => e.flag as RiskFlag);
  const dimensions: RiskDimensions = {
    holder_concentration_score: published(concentration.score),
    liquidity_stability_score: published(liquidity.score),
    wash_trade_score: published(wash.score),
    smart_money_flow_score: published(smartMoney.score),
  };
  const risk = compositeRisk(dimensions, {
    flags,
    ageSeconds: now - launchedAt,
    realized: {
      liquidity_stability_score: providersCanPull(lpLockedShare) ? published(liquidity.realizedScore) : null,
    },
  });
  return {
    riskScore: risk.score,
    riskLevel: riskLevel(risk.score),
    confidence: tokenConfidence(dimensions),
    flags,
    dimensions,
    missingDimensions: missingDimensions(dimensions, RISK_DIMENSION_GAPS),
    signalsMissing: fundingMissing ? ["wallet_funding"] : [],
    weightedScore: risk.weighted,
    adjustments: risk.adjustments,
    flagEvidence: raised,
    methodVersion: METHOD_VERSION,
    ...summary,
  };
}

/** A token's risk, with the parts a second scoring of it reuses (finishTokenRisk). */
export function scoreTokenRiskWithParts(input: TokenRiskInput): { risk: TokenRiskResult; parts: TokenRiskParts } {
  const swaps = recentSwaps(input.swaps, input.now);
  const parts = tokenRiskParts(input, swaps);
  return { risk: finishTokenRisk(parts, smartMoneyFlow(input.smartMoney, swaps)), parts };
}

export const scoreTokenRisk = (input: TokenRiskInput): TokenRiskResult => scoreTokenRiskWithParts(input).risk;
