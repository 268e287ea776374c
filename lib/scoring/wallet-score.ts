/** A wallet's full score in the shape of wallet_scores. */

import type { Classification, Confidence, ReputationDimension, WalletAdjustmentReason } from "@/lib/domain/vocab";
import { classifyWallet } from "./classification";
import type { Adjustment, MissingDimension } from "./composite";
import {
  compositeReputation,
  type ReputationDimensions,
  reputationConfidence,
  reputationDimensions,
  reputationMissing,
} from "./reputation";
import type { WalletReputationInput } from "./wallet-input";
import { METHOD_VERSION } from "./weights";

export type WalletScoreResult = {
  reputationScore: number;
  confidence: Confidence;
  classification: Classification;
  /** At the published precision; null without data (missingDimensions says why). */
  dimensions: ReputationDimensions;
  missingDimensions: MissingDimension<ReputationDimension>[];
  /** The weighted breakdown before adjustments. */
  weightedScore: number;
  adjustments: Adjustment<WalletAdjustmentReason>[];
  closedPositions: number;
  tradeCount: number;
  methodVersion: string;
};

export function scoreWallet(input: WalletReputationInput): WalletScoreResult {
  const dimensions = reputationDimensions(input.positions, input.now);
  const confidence = reputationConfidence(input);
  const reputation = compositeReputation(dimensions, confidence, input);
  return {
    reputationScore: reputation.score,
    confidence,
    classification: classifyWallet({ ...input, reputationScore: reputation.score, confidence }),
    dimensions,
    missingDimensions: reputationMissing(dimensions),
    weightedScore: reputation.weighted,
    adjustments: reputation.adjustments,
    closedPositions: input.positions.filter((p) => p.closed).length,
    tradeCount: input.tradeCount,
    methodVersion: METHOD_VERSION,
  };
}
