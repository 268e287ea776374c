/** A wallet's full score in the shape of wallet_scores. */
import { classifyWallet } from "./classification";
import { compositeReputation, reputationConfidence, reputationDimensions } from "./reputation";
import type { Classification, Confidence } from "./vocab";
import type { WalletReputationInput } from "./wallet-input";
import { METHOD_VERSION } from "./weights";

export type WalletScoreResult = {
  reputationScore: number;
  confidence: Confidence;
  classification: Classification;
  /** 0..1. */
  winRate: number;
  entryTimingScore: number;
  consistencyScore: number;
  riskDrawdownScore: number;
  tradeCount: number;
  methodVersion: string;
};

export function scoreWallet(input: WalletReputationInput): WalletScoreResult {
  const dimensions = reputationDimensions(input.positions);
  const confidence = reputationConfidence(input);
  const reputationScore = compositeReputation(dimensions, confidence);
  return {
    reputationScore,
    confidence,
    classification: classifyWallet({ ...input, reputationScore, confidence }),
    ...dimensions,
    tradeCount: input.tradeCount,
    methodVersion: METHOD_VERSION,
  };
}
